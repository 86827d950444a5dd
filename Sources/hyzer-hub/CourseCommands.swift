import ArgumentParser
import Foundation
import HubCore
import HyzerKit

struct CourseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course",
        abstract: "List the known courses or add one from a file.",
        subcommands: [List.self, Add.self]
    )

    @ParentCommand var root: HyzerHub

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the known courses (three ship with Hyzer).")
        @ParentCommand var course: CourseCommand
        @Flag(help: "Print the courses as a JSON array in the course file format.") var json = false

        func run() throws {
            // With no hub at the home yet, the courses one would start with (nothing is created).
            let courses: [Course]
            do { courses = try course.root.openHub(creating: false).courses() } catch HubError.noHub { courses = try Hub.shippedCourses() }
            if json { try printJSON(courses) } else { print(HubText.courses(courses)) }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a course from a JSON file.",
            discussion: """
                The file: {"name": "Maple Hill", "holes": [{"number": 1, "par": 3}, ...]} with holes \
                numbered 1...N in order (at most 36 holes, as the cloud shares) and par 2...6. Names are unique (any case).
                """
        )
        @ParentCommand var course: CourseCommand
        @Option(help: ArgumentHelp("The course file.", valueName: "FILE")) var file: String

        func run() throws {
            let added = try course.root.openHub().addCourse(fileAt: URL(fileURLWithPath: file))
            print("Added \(added.name): \(added.holeCount) holes, par \(added.totalPar).")
        }
    }
}
