/// A list as a sentence says it: "Jake", "Jake and Sarah", "Jake, Sarah and Mike"; and a count
/// with its noun: "1 score", "2 scores".
public enum ListText {
    /// `n` and `noun`, in the plural unless `n` is 1 (every noun counted here takes an s).
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    public static func joined(_ items: [String], conjunction: String = "and") -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
        }
    }
}
