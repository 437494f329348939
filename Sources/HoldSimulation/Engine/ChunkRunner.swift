import Dispatch
import HoldModel
import HoldProfiles

/// One thread's share of a chunked run: it runs whole chunks (4,096 people each, their draws fixed by the chunk's
/// index) and keeps the per-user rows of each until they are taken, in chunk order.
protocol ChunkWorker: AnyObject, Sendable {
    func run(chunk: Int, users: Int)
    func takeRows(chunk: Int) -> String
}

/// The parallel loop `simulate` and `compare` share: chunks in batches of four per thread, thread `i` taking every
/// `threads`-th chunk of a batch, rows handed on in chunk order after each batch. Which thread runs a chunk never
/// changes what it computes, so results do not depend on the thread count.
enum ChunkRunner {
    /// Runs the chunks of `range` on `workers` (one per thread), `users` people in all.
    ///
    /// - Parameters:
    ///   - perUser: receives each chunk's rows in chunk order; nil when nobody wants them.
    ///   - progress: users done so far in `range`, after each batch.
    static func run(
        _ range: Range<Int>, users: Int, workers: [some ChunkWorker],
        perUser: ((String) throws -> Void)?, progress: ((Int) -> Void)?
    ) throws {
        // The folding loop with nothing kept and no stop: one loop for both.
        _ = try run(range, users: users, workers: workers, take: { _ in () }, perUser: perUser, progress: progress) { _ in
            false
        }
    }

    /// Runs the chunks of `range` as `run` does, but keeps what each chunk counted apart (`take` removes it from
    /// the worker right after the chunk) and hands it to `fold` in chunk order after each batch, with the chunk's
    /// rows first; the first chunk for which `fold` returns true is the last: the batch's later chunks are dropped
    /// and nothing more runs. Where it stops depends on the chunks' counts alone, never on the thread count
    /// (`--precision`).
    ///
    /// - Returns: the number of chunks folded.
    static func run<Worker: ChunkWorker, Part>(
        _ range: Range<Int>, users: Int, workers: [Worker], take: @escaping (Worker) -> Part,
        perUser: ((String) throws -> Void)?, progress: ((Int) -> Void)?, fold: (Part) throws -> Bool
    ) throws -> Int {
        let threads = workers.count
        let batch = threads * 4
        let slots = ChunkParts(count: batch, take: take)
        let parts = slots.parts
        var first = range.lowerBound
        while first < range.upperBound {
            let last = min(range.upperBound, first + batch)
            let start = first
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                let worker = workers[index]
                var chunk = start + index
                while chunk < last {
                    worker.run(chunk: chunk, users: min(Simulator.chunkSize, users - chunk * Simulator.chunkSize))
                    // Each slot is written by the one thread that runs its chunk.
                    slots.parts[chunk - start] = slots.take(worker)
                    chunk += threads
                }
            }
            for chunk in first..<last {
                if let perUser { try perUser(workers[(chunk - first) % threads].takeRows(chunk: chunk)) }
                guard let part = parts[chunk - first] else { preconditionFailure("chunk \(chunk) ran") }
                parts[chunk - first] = nil
                if try fold(part) {
                    progress?(min(users, (chunk + 1) * Simulator.chunkSize) - range.lowerBound * Simulator.chunkSize)
                    return chunk + 1 - range.lowerBound
                }
            }
            progress?(min(users, last * Simulator.chunkSize) - range.lowerBound * Simulator.chunkSize)
            first = last
        }
        return range.count
    }

    /// A profile's control and each class's movement sampler for the population, or the reason they cannot be made.
    static func prepare(_ profile: Profile, population: Population) throws -> (PreparedControl, [Movement?]) {
        let control: PreparedControl
        do {
            control = try profile.prepared()
        } catch {
            throw SimulationError(message: "profile \(profile.name): \(error)")
        }
        var movements: [Movement?] = []
        for userClass in population.classes {
            guard let movement = userClass.movement else {
                movements.append(nil)
                continue
            }
            do {
                movements.append(try Movement(
                    driftPointsPerSqrtSecond: movement.driftPointsPerSqrtSecond, touchRateHz: movement.touchRateHz,
                    maximumDistancePoints: control.control.gesture.maximumDistancePoints))
            } catch {
                throw SimulationError(message: "population \(population.name), class \(userClass.name): \(error)")
            }
        }
        return (control, movements)
    }
}

/// The per-chunk parts of one batch of `ChunkRunner.run(_:users:workers:take:perUser:progress:fold:)`: slot i is
/// written only by the thread that runs the batch's chunk i, and read after the batch, so no two threads touch one.
private final class ChunkParts<Worker, Part>: @unchecked Sendable {
    let parts: UnsafeMutableBufferPointer<Part?>
    let take: (Worker) -> Part

    init(count: Int, take: @escaping (Worker) -> Part) {
        parts = .allocate(capacity: count)
        parts.initialize(repeating: nil)
        self.take = take
    }

    deinit {
        _ = parts.deinitialize()
        parts.deallocate()
    }
}
