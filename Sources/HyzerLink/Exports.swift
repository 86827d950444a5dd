@_exported import HyzerFraming
