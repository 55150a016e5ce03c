import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

struct JUnitReportTests {
    let workspace = Workspace()
    var dir: String { workspace.directory }

    @Test func `junit output has a suite per capture and a test case per decoder`() throws {
        let changed = Sample.env12.replacing("23.45", with: "23.5")
        workspace.capture("env.btsnoop", [changed, Sample.heartRate592, Sample.uart600, Sample.envError700])
        workspace.golden("env.btsnoop", Sample.all)
        workspace.write("bad.btsnoop", "x")
        workspace.golden("bad.btsnoop", [Sample.env12])
        workspace.capture("new.btsnoop", [Sample.env12])
        workspace.golden("old.btsnoop", [Sample.env12])
        let junit = workspace.path("report.xml")
        let (code, _, _) = runTool(["golden", "check", "--junit", junit, dir], environment: ["CI": "1"])
        #expect(code == 3)

        let xml = try #require(workspace.read("report.xml"))
        let root = try #require(XMLTree.parse(xml))
        #expect(root.name == "testsuites")
        #expect(root.attributes["tests"] == "6")
        #expect(root.attributes["failures"] == "3")
        #expect(root.attributes["errors"] == "1")
        #expect(
            root.children.map { $0.attributes["name"] } == [
                "\(dir)/bad.btsnoop", "\(dir)/env.btsnoop", "\(dir)/new.btsnoop", "\(dir)/old.btsnoop.golden.jsonl",
            ])
        for suite in root.children {
            #expect(suite.name == "testsuite")
            #expect(suite.attributes["tests"] == String(suite.children.count))
            let failures = suite.children.count { $0.children.first?.name == "failure" }
            #expect(suite.attributes["failures"] == String(failures))
            let errors = suite.children.count { $0.children.first?.name == "error" }
            #expect(suite.attributes["errors"] == String(errors))
            #expect(suite.children.allSatisfy { $0.name == "testcase" && $0.attributes["classname"] != nil })
        }

        let env = root.children[1]
        #expect(env.children.map { $0.attributes["name"] } == ["combustion.uart", "envsensor", "sig.heart_rate"])
        let failure = try #require(env.children[1].children.first)
        #expect(failure.name == "failure")
        #expect(failure.attributes["message"] == "1 changed")
        #expect(failure.text == "~ frame 12 envsensor C2:6B:30:F9:0E:C7\n    temperature_c  23.45 → 23.5")
        #expect(env.children[0].children.isEmpty)

        let bad = root.children[0].children[0]
        #expect(bad.attributes["name"] == "decode")
        #expect(bad.children.first?.name == "error")
        #expect(bad.children.first?.attributes["message"] == "\(dir)/bad.btsnoop: not a capture (unknown format)")

        #expect(
            root.children[2].children[0].children.first?.attributes["message"]
                == "no golden file \(dir)/new.btsnoop.golden.jsonl")
        #expect(
            root.children[3].children[0].children.first?.attributes["message"] == "obsolete golden: its capture is gone"
        )
    }

    @Test func `junit text is escaped and missing goldens are skipped when not strict`() throws {
        let odd = Sample.env12.replacing("envsensor", with: #"env<\"x\">"#)
        workspace.capture("a&b.btsnoop", [odd])
        workspace.golden("a&b.btsnoop", [odd])
        workspace.capture("new.btsnoop", [Sample.env12])
        let (code, _, _) = runTool(["golden", "check", "--junit", workspace.path("report.xml"), dir])
        #expect(code == 0)
        let xml = try #require(workspace.read("report.xml"))
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuites name="bluetape golden check" tests="2" failures="0" errors="0">
                  <testsuite name="\(dir)/a&amp;b.btsnoop" tests="1" failures="0" errors="0" skipped="0">
                    <testcase name="env&lt;&quot;x&quot;&gt;" classname="\(dir)/a&amp;b.btsnoop"/>
                  </testsuite>
                  <testsuite name="\(dir)/new.btsnoop" tests="1" failures="0" errors="0" skipped="1">
                    <testcase name="golden file" classname="\(dir)/new.btsnoop">
                      <skipped message="no golden file \(dir)/new.btsnoop.golden.jsonl"/>
                    </testcase>
                  </testsuite>
                </testsuites>

                """)
        let root = try #require(XMLTree.parse(xml))
        #expect(root.children[0].children[0].attributes["name"] == #"env<"x">"#)
    }
}

/// An XML document read back into elements, to check the shape of what was written.
final class XMLTree: NSObject, XMLParserDelegate {
    final class Element {
        let name: String
        let attributes: [String: String]
        var children: [Element] = []
        var text = ""
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }
    }

    private var stack: [Element] = []
    private var root: Element?

    /// The root element, or nil when the text is not well-formed XML.
    static func parse(_ text: String) -> Element? {
        let tree = XMLTree()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = tree
        return parser.parse() ? tree.root : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let element = Element(name: name, attributes: attributes)
        stack.last?.children.append(element)
        if root == nil { root = element }
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if stack.last?.children.isEmpty == true { stack.last?.text += string }
    }
}
