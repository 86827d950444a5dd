/// One hole of a course. Par is 2...6 for disc golf.
public struct Hole: Sendable, Hashable, Codable {
    public static let allowedPar: ClosedRange<Int> = 2...6

    public let number: Int
    public let par: Int

    public init(number: Int, par: Int) {
        self.number = number
        self.par = par
    }
}
