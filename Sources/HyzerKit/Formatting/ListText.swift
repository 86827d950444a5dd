/// A list as a sentence says it: "Jake", "Jake and Sarah", "Jake, Sarah and Mike".
public enum ListText {
    public static func joined(_ items: [String], conjunction: String = "and") -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
        }
    }
}
