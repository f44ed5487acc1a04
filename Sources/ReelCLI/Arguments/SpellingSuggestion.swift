/// Finds the name a user most likely meant, for "Did you mean …?".
enum SpellingSuggestion {
    /// The candidate closest to `typed`, ignoring case: an exact match, else the only
    /// candidate that `typed` begins (`qual` → `quality`), else the nearest by edit distance
    /// (insertions, deletions, substitutions, swaps of neighbours) when that distance is
    /// small for the word's length: 1 up to 5 letters, 2 up to 8, 3 beyond. Ties go to the
    /// candidate listed first. Nil when nothing is close.
    static func nearest(to typed: String, in candidates: [String]) -> String? {
        let word = typed.lowercased()
        guard !word.isEmpty else { return nil }
        if let exact = candidates.first(where: { $0.lowercased() == word }) { return exact }
        let extending = candidates.filter { $0.lowercased().hasPrefix(word) }
        if word.count >= 2, extending.count == 1 { return extending[0] }

        let limit = word.count <= 5 ? 1 : word.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(word), Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Optimal string alignment distance: Levenshtein plus swaps of adjacent characters.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
