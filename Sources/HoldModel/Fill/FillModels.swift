// Every fill model, listed once: what a profile chooses (`Fill.Model`) and the model prepared for holds
// (`PreparedFillModel`), in one file so that they cannot drift apart.
//
// A new fill model is its own file (a type conforming to `PreparedFill`, with its checks and preparation), a case in
// each enum below with one line in each switch, and its schema entry in HoldProfiles (`Profile/FillSchema.swift`).
// Nothing else switches over the models: the evaluator reaches them through `PreparedFillModel.run`.

extension Fill {
    /// How progress advances.
    public enum Model: Sendable, Hashable {
        /// An animation of progress 0 → 1 along a timing curve. For Bézier curves the fill lasts
        /// `durationSeconds`; a spring takes its pace from its own parameters.
        case animation(curve: TimingCurve, durationSeconds: Double)
        /// A repeating Timer that adds a growing increment each tick (seed 000, KikoCard).
        case timer(TimerFill)
        /// No fill at all: the static long press baseline.
        case none
    }
}

/// A control's fill model, prepared: the one place that holds it (`PreparedControl.fill`).
enum PreparedFillModel: Sendable {
    case none(NoFill)
    /// A linear or Bézier animation.
    case bezier(BezierFill)
    case spring(SpringFill)
    case timer(TickedFill)

    /// Checks what a profile cannot check key by key; `PreparedControl.validate` calls it in its order of checks.
    static func validate(_ model: Fill.Model, in control: Control) throws(ControlError) {
        switch model {
        case .none: try NoFill.validate(in: control)
        case .animation(.spring, _): break
        case .animation(_, let duration): try BezierFill.validate(durationSeconds: duration, in: control)
        case .timer(let timer): try TickedFill.validate(timer, in: control)
        }
    }

    /// Prepares a validated model. `visibleLevel` and `fullLevel` are the display's (`PreparedControl`); `tables`
    /// says whether to build what the searches use (see `PreparedControl.nominalFillSeconds(validating:)`).
    init(_ model: Fill.Model, visibleLevel: Double, fullLevel: Double, tables: Bool) throws(ControlError) {
        switch model {
        case .none:
            self = .none(NoFill())
        case .animation(.linear, let duration):
            self = .bezier(BezierFill(nil, durationSeconds: duration, visibleLevel: visibleLevel, fullLevel: fullLevel,
                                      tables: tables))
        case .animation(.bezier(let bezier), let duration):
            self = .bezier(BezierFill(bezier, durationSeconds: duration, visibleLevel: visibleLevel,
                                      fullLevel: fullLevel, tables: tables))
        case .animation(.spring(let spring), _):
            self = .spring(SpringFill(spring, visibleLevel: visibleLevel, fullLevel: fullLevel))
        case .timer(let timer):
            self = .timer(try TickedFill(timer, visibleLevel: visibleLevel, fullLevel: fullLevel))
        }
    }

    /// Runs `work` with the model as its concrete type, so the compiler specialises the work for every model: the one
    /// switch the evaluator goes through.
    @inline(__always)
    func run<Work: FillWork>(_ work: Work) -> Work.Result {
        switch self {
        case .none(let fill): work.run(fill)
        case .bezier(let fill): work.run(fill)
        case .spring(let fill): work.run(fill)
        case .timer(let fill): work.run(fill)
        }
    }

    /// The model behind the protocol, for what is read once per control (never on a per-person path).
    var model: any PreparedFill {
        switch self {
        case .none(let fill): fill
        case .bezier(let fill): fill
        case .spring(let fill): fill
        case .timer(let fill): fill
        }
    }
}

/// Work that needs the concrete type of a control's fill model (Swift has no generic closures):
/// `PreparedFillModel.run` hands it the model.
protocol FillWork {
    associatedtype Result
    func run<Fill: PreparedFill>(_ fill: Fill) -> Result
}
