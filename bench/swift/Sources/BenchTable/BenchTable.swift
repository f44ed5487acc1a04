// What the benchmark programs share to report their figures: a percentile of sorted samples
// and a fixed-width table row.

/// The `p`-th quantile (0...1) of `sorted` by the nearest rank (rounded), or NaN when empty.
public func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// One table row: the name left-aligned in `nameWidth` columns, each cell right-aligned in
/// `cellWidth`.
public func row(_ name: String, _ cells: [String], nameWidth: Int, cellWidth: Int = 10) -> String {
    func pad(_ text: String, _ width: Int, left: Bool) -> String {
        let space = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + space : space + text
    }
    return pad(name, nameWidth, left: true) + cells.map { pad($0, cellWidth, left: false) }.joined()
}
