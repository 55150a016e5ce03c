import Foundation
import Testing
import TestSupport

/// Headless Chromium, when it is installed (scripts/test-report installs it).
enum Browser {
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// Runs it headless; returns stdout and the console lines it logged.
    static func run(_ arguments: [String]) throws -> (out: String, console: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments =
            ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--enable-logging=stderr", "--v=0"]
            + arguments
        let out = Pipe()
        // stderr to a file: with two pipes, one filling up would block the browser.
        let log = TestPaths.temporaryDirectory() + "/chromium.log"
        try #require(FileManager.default.createFile(atPath: log, contents: nil), "cannot create \(log)")
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try err.close()
        let errData = FileManager.default.contents(atPath: log) ?? Data()
        let console = String(decoding: errData, as: UTF8.self).split(separator: "\n").filter { $0.contains(":CONSOLE") }
        return (String(decoding: outData, as: UTF8.self), console.map(String.init))
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let match = tag.firstMatch(of: try! Regex("\(name)=\"([^\"]*)\"")) else { return nil }
        return match.output[1].substring.map(String.init)
    }
}

@Suite(.enabled(if: Browser.path != nil, "Chromium is not installed: scripts/test-report installs it and checks the reports"))
struct BrowserTests {
    @Test func `headless Chromium finds one plot per device and numeric field, every series drawn, no error`() throws {
        let directory = TestPaths.temporaryDirectory()
        let page = directory + "/report.html"
        let (code, _, err) = runTool(["report", "-o", page] + ReportCommandTests.shipped)
        #expect(code == 0, "\(err)")
        let (dom, console) = try Browser.run(["--dump-dom", "file://" + page])
        #expect(console.isEmpty, "\(console)")
        let check = try #require(dom.firstMatch(of: /<output id="self-check"[^>]*>/)?.output)
        #expect(Browser.attribute("data-ok", in: check) == "true", "\(Browser.attribute("data-problems", in: check) ?? "")")
        var expected: [String] = []
        for capture in ReportCommandTests.shipped { expected += try expectedPlots(capture) }
        #expect(Browser.attribute("data-reading-plots", in: check) == String(expected.count))
        let plots = dom.matches(of: /<figure class="plot reading" data-device="([^"]*)" data-field="([^"]*)"/).map {
            "\($0.output.1) \($0.output.2)"
        }
        #expect(plots == expected)
        // The page moves the pointer onto the first point of the first plot: the tooltip names its
        // frame, time and value, those of the first capture's first reading.
        let (_, decoded, _) = runTool(["decode", "--format", "jsonl", ReportCommandTests.shipped[0]])
        let first = try #require(try jsonLines(decoded).first)
        let field = try #require(first["fields"]?.object?.entries.first { if case .number = $0.value { true } else { false } })
        let hover = Browser.attribute("data-hover", in: check) ?? ""
        #expect(hover.hasPrefix("\(first["decoder"]?.string ?? "") | frame \(first["frame"]?.int64 ?? 0) | "), "\(hover)")
        #expect(hover.hasSuffix(" | \(field.key) = \(field.value.jsonText) °C"), "\(hover)")
        #expect(hover.firstMatch(of: /\| \d+\.\d{3} s \(\d\d:\d\d:\d\d\.\d{3} UTC\) \|/) != nil, "\(hover)")
        let points = Int(Browser.attribute("data-points", in: check) ?? "") ?? 0
        let series = Int(Browser.attribute("data-series", in: check) ?? "") ?? 0
        #expect(series >= expected.count && points >= series)
    }

    @Test func `the screenshot of the EnvSensor report is not blank`() throws {
        let directory = TestPaths.temporaryDirectory()
        let page = directory + "/envsensor.html"
        let (code, _, _) = runTool(["report", "-o", page, TestPaths.captures + "/envsensor.btsnoop"])
        #expect(code == 0)
        let blank = directory + "/blank.html"
        #expect(TestPaths.writeFile(blank, Array("<!doctype html><html><body></body></html>".utf8)))
        for (html, png) in [(page, directory + "/envsensor.png"), (blank, directory + "/blank.png")] {
            _ = try Browser.run(["--window-size=1400,1800", "--screenshot=\(png)", "file://" + html])
        }
        let report = try #require(TestPaths.readFile(directory + "/envsensor.png"))
        let empty = try #require(TestPaths.readFile(directory + "/blank.png"))
        // Same size; a drawn page compresses far worse than an empty one (scripts/test-report
        // also counts the rows that have anything on them).
        #expect(Array(report[16..<24]) == Array(empty[16..<24]), "both 1400 × 1800")
        #expect(report.count > 20 * empty.count, "\(report.count) bytes against \(empty.count) for a blank page")
    }
}
