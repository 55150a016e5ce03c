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

/// JSON Lines as parsed values.
func jsonLines(_ text: String) throws -> [JSONValue] {
    try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
}

/// Microseconds of an event's "ts" (seconds with six decimals), read from its text.
func micros(_ value: JSONValue?) -> Int64? {
    guard case .number(let text)? = value else { return nil }
    let parts = text.split(separator: ".")
    guard parts.count == 2, let whole = Int64(parts[0]), let fraction = Int64(parts[1]), parts[1].count == 6 else { return nil }
    return whole * 1_000_000 + fraction
}

/// The median as numpy computes it by default: the middle value, or the mean of the two middle ones.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

struct StatsCommandTests {
    static let envsensor = TestPaths.captures + "/envsensor.btsnoop"
    static let envsensorAddress = "C2:6B:30:F9:0E:C7"

    func stats(_ path: String, _ extra: [String] = []) throws -> JSONValue {
        let (code, out, err) = runTool(["stats", "--json"] + extra + [path])
        #expect(code == 0, "\(err)")
        let lines = try jsonLines(out)
        try #require(lines.count == 1)
        return lines[0]
    }

    func device(_ stats: JSONValue, _ address: String) throws -> JSONValue {
        try #require(stats["devices"]?.array?.first { $0["addr"]?.string == address })
    }

    @Test func `the EnvSensor's advert count is the number of its adv events`() throws {
        let (_, events, _) = runTool(["events", "--format", "jsonl", "--type", "adv", Self.envsensor])
        let adverts = try jsonLines(events).filter { $0["addr"]?.string == Self.envsensorAddress }
        let device = try device(try stats(Self.envsensor), Self.envsensorAddress)
        #expect(adverts.count == 601)
        #expect(device["adverts"]?.int64 == Int64(adverts.count))
        for pdu in Set(adverts.compactMap { $0["pdu"]?.string }) {
            #expect(device["adverts_by_pdu"]?[pdu]?.int64 == Int64(adverts.filter { $0["pdu"]?.string == pdu }.count))
        }
    }

    @Test func `the EnvSensor's interval median is the median time between its adverts, scan responses left out`() throws {
        let (_, events, _) = runTool(["events", "--format", "jsonl", "--type", "adv", Self.envsensor])
        let times = try jsonLines(events)
            .filter { $0["addr"]?.string == Self.envsensorAddress && $0["pdu"]?.string != "scan_rsp" }
            .compactMap { micros($0["ts"]) }
        let intervals = zip(times.dropFirst(), times).map { Double($0 - $1) / 1000 }
        let interval = try device(try stats(Self.envsensor), Self.envsensorAddress)["interval_ms"]
        #expect(interval?["count"]?.int64 == Int64(intervals.count))
        let expected = median(intervals)
        let reported = try #require(interval?["median"]?.double)
        #expect(abs(reported - expected) < 1e-9, "median \(reported) ms, computed \(expected) ms")
        #expect(interval?["min"]?.double == intervals.min())
        #expect(interval?["max"]?.double == intervals.max())
        #expect(interval?["approximate"] == nil)
    }

    @Test func `RSSI minimum, median and maximum are those of the adverts`() throws {
        let (_, events, _) = runTool(["events", "--format", "jsonl", "--type", "adv", Self.envsensor])
        let rssi = try jsonLines(events).filter { $0["addr"]?.string == Self.envsensorAddress }.compactMap { $0["rssi"]?.double }
        let reported = try device(try stats(Self.envsensor), Self.envsensorAddress)["rssi"]
        #expect(reported?["min"]?.double == rssi.min())
        #expect(reported?["max"]?.double == rssi.max())
        #expect(reported?["median"]?.double == median(rssi))
    }

    @Test func `per decoder, each field's minimum, median and maximum are those of the readings`() throws {
        let (_, decoded, _) = runTool(["decode", "--format", "jsonl", Self.envsensor])
        let readings = try jsonLines(decoded).filter { $0["decoder"]?.string == "envsensor" }
        let decoder = try #require(try stats(Self.envsensor)["decoders"]?.array?.first { $0["decoder"]?.string == "envsensor" })
        #expect(decoder["readings"]?.int64 == Int64(readings.count))
        #expect(decoder["errors"]?.int64 == Int64(readings.filter { $0["error"] != nil }.count))
        for field in ["temperature_c", "humidity_pct", "pressure_hpa", "current_ma", "nonce"] {
            let values = readings.compactMap { $0["fields"]?[field]?.double }
            let summary = decoder["fields"]?[field]
            #expect(summary?["count"]?.int64 == Int64(values.count), "\(field)")
            #expect(summary?["min"]?.double == values.min(), "\(field)")
            #expect(summary?["max"]?.double == values.max(), "\(field)")
            let reported = try #require(summary?["median"]?.double)
            #expect(abs(reported - median(values)) < 1e-9, "\(field): \(reported) vs \(median(values))")
        }
    }

    @Test func `connections are those of the event stream, with MTU, counts and disconnect reason`() throws {
        let path = TestPaths.captures + "/sig-heart-thermometer.btsnoop"
        let (_, text, _) = runTool(["events", "--format", "jsonl", path])
        let events = try jsonLines(text)
        let connects = events.filter { $0["type"]?.string == "connect" }
        let connections = try #require(try stats(path)["connections"]?.array)
        #expect(connections.count == connects.count)
        for connection in connections {
            let handle = try #require(connection["conn"]?.int64)
            let start = try #require(micros(connection["start_ts"]))
            let end = micros(connection["end_ts"]) ?? Int64.max
            let within = events.filter {
                $0["conn"]?.int64 == handle && (micros($0["ts"]).map { $0 >= start && $0 <= end } ?? false)
            }
            let att = within.filter { $0["type"]?.string == "att" }
            let notifications = att.filter { $0["op"]?.string == "notify" }.count
            #expect(connection["notifications"]?.int64 == Int64(notifications))
            #expect(connection["indications"]?.int64 == Int64(att.filter { $0["op"]?.string == "indicate" }.count))
            if let mtu = within.last(where: { $0["type"]?.string == "mtu" })?["mtu"] {
                #expect(connection["mtu"] == mtu)
            }
            if let disconnect = within.first(where: { $0["type"]?.string == "disconnect" }) {
                #expect(connection["disconnect_reason"] == disconnect["reason"])
            }
            let pdus = att.filter { $0["op"]?.string.map { !$0.hasSuffix("_long") } ?? false }.count
            let counted = connection["att_opcodes"]?.object?.entries.reduce(Int64(0)) { $0 + ($1.value.int64 ?? 0) }
            #expect(counted == Int64(pdus))
        }
    }

    @Test func `text stats name each device and decoder`() {
        let (code, out, err) = runTool(["stats", Self.envsensor])
        #expect(code == 0)
        #expect(err.isEmpty)
        #expect(out.contains("device \(Self.envsensorAddress) (random)"))
        #expect(out.contains("adverts      601: adv_scan_ind 300, adv_nonconn_ind 1, scan_rsp 300"))
        #expect(out.contains("decoder envsensor: 61 readings"))
    }

    @Test func `--events-only gives the same devices and connections and decodes nothing`() throws {
        let path = TestPaths.captures + "/sig-heart-thermometer.btsnoop"
        let full = try stats(path)
        let events = try stats(path, ["--events-only"])
        #expect(events["decoders"]?.array?.isEmpty == true)
        #expect(full["decoders"]?.array?.isEmpty == false)
        #expect(events["connections"] == full["connections"])
        let strip: (JSONValue?) -> [JSONValue] = { devices in
            (devices?.array ?? []).map { device in
                .object(JSONObject(device.object!.entries.filter { $0.key != "decoders" }))
            }
        }
        #expect(strip(events["devices"]) == strip(full["devices"]))
    }

    @Test func `a missing file is bad input and the others are still summarized`() throws {
        let (code, out, err) = runTool(["stats", "--json", "/nonexistent/x.btsnoop", Self.envsensor])
        #expect(code == 3)
        #expect(err.contains("/nonexistent/x.btsnoop"))
        #expect(try jsonLines(out).count == 1)
    }
}
