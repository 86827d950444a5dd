import Foundation

/// A course: a name and its holes, numbered 1...N with par 2...6.
///
/// The JSON form is the course file contract: `{"name": "Maple Hill", "holes": [{"number": 1, "par": 3}, …]}`.
public struct Course: Sendable, Hashable, Codable {
    public let name: String
    public let holes: [Hole]

    /// Builds a course, refusing names, numbering or pars a round could not be played on.
    public init(name: String, holes: [Hole]) throws(CourseError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyName }
        if let problem = NameText.problem(trimmed) { throw .badName(trimmed, problem) }
        guard !holes.isEmpty else { throw .noHoles(course: trimmed) }
        guard holes.count <= Self.allowedHoleCount.upperBound else { throw .tooManyHoles(course: trimmed, count: holes.count) }
        for (index, hole) in holes.enumerated() where hole.number != index + 1 {
            throw .holesNotNumberedInOrder(course: trimmed, position: index + 1, found: hole.number)
        }
        if let bad = holes.first(where: { !Hole.allowedPar.contains($0.par) }) {
            throw .parOutOfRange(course: trimmed, hole: bad.number, par: bad.par)
        }
        self.name = trimmed
        self.holes = holes
    }

    /// How many holes a course may have: two 18-hole layouts played as one. The cloud holds a
    /// round to the same bound, so every course here can be shared.
    public static let allowedHoleCount: ClosedRange<Int> = 1...36

    public var holeCount: Int { holes.count }
    public var totalPar: Int { holes.reduce(0) { $0 + $1.par } }

    public func hole(_ number: Int) -> Hole? {
        holes.indices.contains(number - 1) ? holes[number - 1] : nil
    }

    private enum CodingKeys: String, CodingKey { case name, holes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            name: container.decode(String.self, forKey: .name),
            holes: container.decode([Hole].self, forKey: .holes)
        )
    }
}

public enum CourseError: Error, Equatable, Sendable, CustomStringConvertible {
    static var holeRange: String { "\(Course.allowedHoleCount.lowerBound) to \(Course.allowedHoleCount.upperBound)" }

    case emptyName
    case badName(String, String)
    case noHoles(course: String)
    case tooManyHoles(course: String, count: Int)
    case holesNotNumberedInOrder(course: String, position: Int, found: Int)
    case parOutOfRange(course: String, hole: Int, par: Int)

    public var description: String {
        switch self {
        case .emptyName:
            "A course needs a non-empty name."
        case .badName(let name, let problem):
            "The course name \"\(NameText.shown(name))\" cannot be used: \(problem)."
        case .noHoles(let course):
            "Course \"\(course)\" has no holes; a course needs at least one hole, numbered from 1."
        case .tooManyHoles(let course, let count):
            "Course \"\(course)\" has \(count) holes; a course has \(Self.holeRange) holes."
        case .holesNotNumberedInOrder(let course, let position, let found):
            "Course \"\(course)\": hole at position \(position) is numbered \(found); holes must be numbered 1...N in order."
        case .parOutOfRange(let course, let hole, let par):
            "Course \"\(course)\": hole \(hole) has par \(par); par must be between \(Hole.allowedPar.lowerBound) and \(Hole.allowedPar.upperBound)."
        }
    }
}
