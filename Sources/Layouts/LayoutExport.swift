/// A layout for other tools, generated from the one file so that no copy drifts
/// (`bluetape layout export`, layouts/README.md).
public enum LayoutExport {
    /// A Wireshark Lua plugin: one protocol per layout.
    public static func wireshark(_ layouts: [Layout]) -> String { WiresharkExport.plugin(layouts) }

    /// A header-only C99 encoder and decoder for firmware.
    public static func c(_ layout: Layout) -> String { CExport.header(layout) }

    /// A C program that checks `c(layout)` against the layout's vectors (compiled with
    /// `-DBLUETAPE_HEADER='"payload.h"'`).
    public static func cTest(_ layout: Layout) -> String { CHarness.program(layout) }

    /// The payload's spec page: byte table, match, parameters, rules, worked examples.
    public static func markdown(_ layout: Layout) -> String { MarkdownExport.page(layout) }
}

extension Layout {
    /// Every name a reading of this layout can carry (values, labels, bytes and text), for exports' checks.
    public func forEachFieldName(_ body: (String) -> Void) {
        var seen: Set<String> = []
        func visit(_ nodes: [Node]) {
            for node in nodes {
                node.forEachValue { v in
                    if seen.insert(v.name).inserted { body(v.name) }
                }
                switch node {
                case .data(let d): if seen.insert(d.name).inserted { body(d.name) }
                case .switchOn(let s):
                    for arm in s.cases { visit(arm.nodes) }
                    visit(s.defaultNodes ?? [])
                default: break
                }
            }
        }
        visit(nodes)
    }
}
