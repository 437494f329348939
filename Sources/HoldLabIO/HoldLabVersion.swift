/// The tool's version, written into every CSV's provenance.
public enum HoldLabVersion {
    public static let current = "0.3.18"
}
