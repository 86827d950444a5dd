/// How many insertions, deletions and changes turn one sequence into another (Levenshtein), with
/// a price per change: what the voice matcher compares spellings and name sounds by.
enum EditDistance {
    static func between<Element: Equatable>(_ a: [Element], _ b: [Element],
                                            change: (Element, Element) -> Double = { $0 == $1 ? 0 : 1 }) -> Double {
        if a.isEmpty { return Double(b.count) }
        if b.isEmpty { return Double(a.count) }
        var previous = (0...b.count).map(Double.init)
        var current = [Double](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = Double(i)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + change(a[i - 1], b[j - 1]))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
