import ArgumentParser
import HyzerCLI
import HyzerLink
import Logging
import WatchCore

/// What hyzer-watch was asked to do, as swift-argument-parser read it (`HyzerWatch.arguments`).
struct WatchArguments: Equatable {
    var home: String?
    var connect: LinkAddress?
    var tokenFile: String?
    var hubFingerprint: String?
    var insecure = false
    var size: WatchSize = .mm45
    var headless = false
    var script: String?
    var screenshotDir: String?
    var expectTimeout = 3.0
    var reduceMotion = false
    var textSize: TextSize = .standard
    var chrome: Bool?
    var scale = "1"
    var device: String?
    var wearer: String?
    var logLevel: Logger.Level?
    var reportFirstFrame = false
    var sameMachineFile = false
    var complicationBudget = ComplicationBudget.defaultDaily
    var returnToClock = ReturnToClock.standard
}
