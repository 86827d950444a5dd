import Foundation
import Testing

/// The README's module table says what each module may import; `Package.swift` decides it. Every
/// edge between the package's own modules must be in the table, and every module in it.
@Suite("The README's module table")
struct PackageTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each target of `Package.swift` with the package's own targets it depends on (quoted names
    /// in its `dependencies: [...]`; products of other packages are written `.product(...)`).
    static func packageEdges() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targetStart = try Regex(#"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([\w-]+)""#)
        var edges: [String: Set<String>] = [:]
        for match in manifest.matches(of: targetStart) {
            guard let name = match.output[1].substring.map(String.init) else { continue }
            var dependencies = Set<String>()
            // This target's text: up to the next target's declaration.
            let rest = manifest[match.range.upperBound...]
            let next = rest.firstRange(of: #/\.(?:target|executableTarget|testTarget|systemLibrary)\(/#)
            let body = rest[..<(next?.lowerBound ?? rest.endIndex)]
            if let list = body.range(of: "dependencies: [") {
                var depth = 1, index = list.upperBound
                while depth > 0, index < body.endIndex {
                    if body[index] == "[" { depth += 1 } else if body[index] == "]" { depth -= 1 }
                    index = body.index(after: index)
                }
                let text = body[list.upperBound..<index].replacing(#/\.product\([^)]*\)/#, with: "")
                for word in text.matches(of: #/"([\w-]+)"/#) { dependencies.insert(String(word.output.1)) }
            }
            edges[name] = dependencies
        }
        return edges
    }

    /// The table's rows: module → the text of its "may import" cell.
    static func tableRows() throws -> [String: String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var rows: [String: String] = [:]
        for line in readme.split(separator: "\n") {
            guard let row = line.wholeMatch(of: #/\| `([\w-]+)` \|[^|]+\|[^|]+\| ([^|]+) \|/#) else { continue }
            rows[String(row.output.1)] = String(row.output.2)
        }
        return rows
    }

    @Test("Every module of Package.swift has a row, and every import of the package's own modules is in it")
    func tableMatchesPackage() throws {
        let edges = try Self.packageEdges(), rows = try Self.tableRows()
        #expect(edges.count >= 10, "read \(edges.keys.sorted()) from Package.swift")
        let modules = Set(edges.keys)
        for (module, dependencies) in edges where !module.hasSuffix("Tests") && !["hyzer-link-client", "ThirdPartyClient"].contains(module) {
            guard let cell = rows[module] else {
                Issue.record("README's module table has no row for \(module)")
                continue
            }
            let listed = Set(cell.split(whereSeparator: { ", ".contains($0) }).map(String.init))
            let missing = dependencies.intersection(modules).subtracting(listed)
            #expect(missing.isEmpty, "\(module) imports \(missing.sorted()) but its row says: \(cell)")
        }
    }
}
