/// A test precondition that did not hold (a server that did not start, a bad seed), with what went wrong.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
