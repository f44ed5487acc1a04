/// Durations on the command line: `30` (seconds), `1.5s`, `500ms`, `2m`, `1h`, `1h30m`, `1m30s`.
///
/// Units go from larger to smaller and each appears once; a bare number is seconds and
/// stands alone. Negative durations are refused.
extension Duration: ArgumentValue {
    /// The duration written in `argument`, or nil when it does not follow the forms above.
    public init?(argument: String) {
        let text = argument.lowercased()
        if let seconds = Self.number(Substring(text)) {
            self = .seconds(seconds)
            return
        }
        // Units from the largest; each part must use a smaller unit than the one before.
        let units: [(suffix: String, seconds: Double)] = [("h", 3600), ("m", 60), ("s", 1), ("ms", 0.001)]
        var rest = Substring(text)
        var total = 0.0
        var nextUnit = 0
        while !rest.isEmpty {
            guard let digitsEnd = rest.firstIndex(where: { !($0.isASCII && ($0.isNumber || $0 == ".")) }),
                  let amount = Self.number(rest[..<digitsEnd]) else { return nil }
            let unitEnd = rest[digitsEnd...].firstIndex(where: { $0.isNumber || $0 == "." }) ?? rest.endIndex
            let suffix = String(rest[digitsEnd..<unitEnd])
            guard let index = units.firstIndex(where: { $0.suffix == suffix }), index >= nextUnit else { return nil }
            total += amount * units[index].seconds
            nextUnit = index + 1
            rest = rest[unitEnd...]
        }
        guard nextUnit > 0, total.isFinite else { return nil }
        self = .seconds(total)
    }

    /// `"a duration such as 30, 1.5s, 500ms, 2m or 1h30m"`.
    public static var expectation: String { "a duration such as 30, 1.5s, 500ms, 2m or 1h30m" }
    /// `"DURATION"`.
    public static var placeholder: String { "DURATION" }

    /// The duration in seconds, as a `Double`.
    var secondsValue: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// An unsigned decimal (`30`, `1.5`, `.5`): digits and at most one point, nothing else.
    private static func number(_ text: Substring) -> Double? {
        guard !text.isEmpty, text != ".",
              text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1 else { return nil }
        return Double(text)
    }
}
