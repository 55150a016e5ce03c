import BluetapeCLI
import JSON
import SystemIO
import Testing
import TestSupport

/// Runs the tool in-process and returns (exit code, stdout, stderr).
func runTool(_ arguments: [String]) -> (Int32, String, String) {
    let out = Output()
    let err = Output()
    let code = CommandLineTool.run(arguments, stdout: out, stderr: err)
    return (code, out.text, err.text)
}

func jsonLines(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
}

/// What the page holds, read from its markup.
struct PageContents {
    let html: String

    init(_ path: String) throws { html = try #require(TestPaths.readText(path)) }

    /// (device, field) of every plot of readings, in order.
    var readingPlots: [String] {
        html.matches(of: /<figure class="plot reading" data-device="([^"]*)" data-field="([^"]*)"/).map {
            "\($0.output.1) \($0.output.2)"
        }
    }

    var series: [Substring] { html.matches(of: /<g class="series"[^>]*>/).map { $0.output } }

    func count(_ needle: String) -> Int { html.components(separatedBy: needle).count - 1 }
}

extension String {
    func components(separatedBy separator: String) -> [Substring] { split(separator: separator, omittingEmptySubsequences: false) }
}

/// The plots a report must hold: one per (device, numeric field) of the readings `decode` gives.
func expectedPlots(_ capture: String) throws -> [String] {
    let (code, out, _) = runTool(["decode", "--format", "jsonl", capture])
    #expect(code == 0)
    var seen: [String] = []
    for reading in try jsonLines(out) {
        let device = reading["addr"]?.string ?? "no address"
        for (name, value) in reading["fields"]?.object?.entries ?? [] {
            guard case .number = value else { continue }
            let key = "\(device) \(name)"
            if !seen.contains(key) { seen.append(key) }
        }
    }
    return seen
}

struct ReportCommandTests {
    static var shipped: [String] {
        TestPaths.list(TestPaths.captures).filter { $0.hasSuffix(".btsnoop") }.sorted().map { TestPaths.captures + "/" + $0 }
    }

    func report(_ arguments: [String]) throws -> (Int32, PageContents, String) {
        let path = TestPaths.temporaryDirectory() + "/report.html"
        let (code, _, err) = runTool(["report", "-o", path] + arguments)
        return (code, try PageContents(path), err)
    }

    @Test func `the report of the shipped captures loads nothing from anywhere`() throws {
        let (code, page, err) = try report(Self.shipped)
        #expect(code == 0, "\(err)")
        #expect(err.isEmpty)
        let html = page.html
        #expect(!html.contains("http://") && !html.contains("https://"))
        // Nothing the browser would fetch: no sources, style sheets, imports or remote URLs, and
        // links only within the page.
        for needle in ["src=", "srcset=", "<link", "@import", "url(", "<iframe", "<object", "<embed", "<img"] {
            #expect(page.count(needle) == 0, "\(needle)")
        }
        for match in html.matches(of: /href="([^"]*)"/) { #expect(match.output.1.hasPrefix("#")) }
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
    }

    @Test func `the report holds one plot per device and numeric field of the readings`() throws {
        let (_, page, _) = try report(Self.shipped)
        var expected: [String] = []
        for capture in Self.shipped { expected += try expectedPlots(capture) }
        #expect(expected.count > 40)
        #expect(page.readingPlots == expected)
        // Each series has points, as many times, values and frames.
        #expect(page.series.count >= expected.count)
        for series in page.series {
            let points = try #require(series.firstMatch(of: /data-points="(\d+)"/)).output.1
            #expect(Int(points)! > 0)
            let times = try #require(series.firstMatch(of: /data-t="([^"]*)"/)).output.1.split(separator: ",").count
            let values = try #require(series.firstMatch(of: /data-v="([^"]*)"/)).output.1.split(separator: ",").count
            #expect(times == Int(points)! && values == times)
        }
    }

    @Test func `rule violations are marked on the curve, one per broken reading`() throws {
        let directory = TestPaths.temporaryDirectory()
        let layout = try #require(TestPaths.readText(TestPaths.packageRoot + "/layouts/envsensor.json"))
        let strict = layout.replacingFirst(
            #""temperature_c", "type": "i16", "offset": 2, "scale": 0.01, "unit": "°C" }"#,
            with: #""temperature_c", "type": "i16", "offset": 2, "scale": 0.01, "unit": "°C", "max": 23.5 }"#)
        #expect(strict != layout)
        #expect(TestPaths.writeFile(directory + "/strict.json", Array(strict.utf8)))
        let capture = TestPaths.captures + "/envsensor.btsnoop"
        let (checkCode, checked, _) = runTool(["check", "--layout", directory + "/strict.json", capture])
        #expect(checkCode == 1)
        let broken = checked.split(separator: "\n").filter { $0.contains("temperature_c: max:") }.count
        #expect(broken > 10)
        let (code, page, _) = try report(["--layout", directory + "/strict.json", capture])
        #expect(code == 1)
        #expect(page.count("class=\"marker violation\"") == broken)
        #expect(page.html.contains("Rule violations"))
    }

    @Test func `differences from the golden are marked on the curve`() throws {
        let directory = TestPaths.temporaryDirectory()
        let capture = TestPaths.captures + "/envsensor.btsnoop"
        let golden = try #require(TestPaths.readText(capture + ".golden.jsonl"))
        var lines = golden.split(separator: "\n").map(String.init)
        let changed = try #require(lines.firstIndex { $0.contains("\"temperature_c\":22.58") })
        lines[changed] = lines[changed].replacingFirst("\"temperature_c\":22.58", with: "\"temperature_c\":30")
        lines.remove(at: changed + 3)
        #expect(TestPaths.writeFile(directory + "/envsensor.btsnoop.golden.jsonl", Array((lines.joined(separator: "\n") + "\n").utf8)))
        let (code, page, err) = try report(["--golden", directory, capture])
        #expect(code == 1, "\(err)")
        #expect(page.count("class=\"marker golden\"") >= 2)
        #expect(page.html.contains("Differences from the golden"))
        #expect(page.html.contains("30 → 22.58"))
        // Unchanged goldens mark nothing and exit 0.
        let (same, clean, _) = try report(["--golden", TestPaths.captures, capture])
        #expect(same == 0)
        #expect(clean.count("class=\"marker") == 0)
    }

    @Test func `usage errors and unreadable captures`() throws {
        var (code, _, err) = runTool(["report", TestPaths.captures + "/envsensor.btsnoop"])
        #expect(code == 2)
        #expect(err.contains("report needs -o"))
        let path = TestPaths.temporaryDirectory() + "/r.html"
        (code, _, err) = runTool(["report", "-o", path, "/nonexistent/x.btsnoop", TestPaths.captures + "/tractor.btsnoop"])
        #expect(code == 3)
        #expect(err.contains("/nonexistent/x.btsnoop"))
        #expect(try PageContents(path).html.contains("tractor.btsnoop"))
        (code, _, err) = runTool(["report", "-o", "/nonexistent/r.html", TestPaths.captures + "/tractor.btsnoop"])
        #expect(code == 3)
        #expect(err == "error: /nonexistent/r.html: cannot write: no such file or directory\n")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }

    func range(of target: String) -> Range<String.Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
