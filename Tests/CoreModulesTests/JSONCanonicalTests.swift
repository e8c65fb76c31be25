import CanonicalJSON
import Testing

// MARK: - JSONCanonicalTests

/// Hard-coded expectations, produced once with Python 3.11:
/// `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
@Suite("JSON canonical serialization")
struct JSONCanonicalTests {
    // MARK: - Strings

    @Test("string escaping matches Python", arguments: [
        ("Zürich", #""Z\u00fcrich""#),
        ("東京", #""\u6771\u4eac""#),
        ("😀", #""\ud83d\ude00""#),
        ("\u{0}\u{1f}\u{7f}", #""\u0000\u001f\u007f""#),
        ("\u{2028}", #""\u2028""#),
        ("a\"b\\c/d", #""a\"b\\c/d""#),
        ("\u{8}\u{c}\n\r\t", #""\b\f\n\r\t""#),
        ("\u{80}\u{ff}\u{100}", #""\u0080\u00ff\u0100""#),
        ("", #""""#),
        ("plain ascii ~ !", #""plain ascii ~ !""#),
    ])
    func stringEscaping(input: String, expected: String) {
        #expect(JSONValue.string(input).canonicalString() == expected)
        var bytes: [UInt8] = []
        JSONWriter.escape(input, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test("combining sequences are escaped scalar by scalar, not normalized")
    func noNormalization() {
        #expect(JSONValue.string("e\u{301}").canonicalString() == #""e\u0301""#)
        #expect(JSONValue.string("\u{e9}").canonicalString() == #""\u00e9""#)
    }

    // MARK: - Objects

    @Test("keys sort by Unicode scalar value, not UTF-16 or String <")
    func keyOrder() {
        let value: JSONValue = ["é": 1, "z": 2, "Z": 3, "a": 4, "\u{10000}": 5, "\u{FFFF}": 6]
        #expect(value.canonicalString() == #"{"Z":3,"a":4,"z":2,"\u00e9":1,"\uffff":6,"\ud800\udc00":5}"#)
    }

    @Test("nested containers")
    func nested() {
        let value: JSONValue = ["b": 1, "a": [true, false, nil], "c": "x"]
        #expect(value.canonicalString() == #"{"a":[true,false,null],"b":1,"c":"x"}"#)

        let deeper: JSONValue = ["outer": ["inner": [1, ["k": "v"], []], "empty": [:]]]
        #expect(deeper.canonicalString() == #"{"outer":{"empty":{},"inner":[1,{"k":"v"},[]]}}"#)
    }

    // MARK: - Numbers

    @Test("integers")
    func integers() {
        let value: JSONValue = [.int(.max), .int(.min), -1, 0]
        #expect(value.canonicalString() == "[9223372036854775807,-9223372036854775808,-1,0]")
    }

    @Test("doubles use Python repr", arguments: [
        (1.0, "1.0"), (1e16, "1e+16"), (1e15, "1000000000000000.0"), (1e-5, "1e-05"),
        (1e-4, "0.0001"), (0.1, "0.1"), (-0.0, "-0.0"), (0.0, "0.0"),
        (Double.leastNonzeroMagnitude, "5e-324"), (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (123456789012345678.0, "1.2345678901234568e+17"), (1.5e-7, "1.5e-07"), (100.0, "100.0"),
        (2.5, "2.5"), (0.1 + 0.2, "0.30000000000000004"), (1e22, "1e+22"), (1e21, "1e+21"),
        (9007199254740992.0, "9007199254740992.0"), (-1.5e300, "-1.5e+300"), (1.23e-100, "1.23e-100"),
    ])
    func doubles(value: Double, expected: String) {
        #expect(JSONValue.double(value).canonicalString() == expected)
    }

    @Test("NaN and infinities serialize as null")
    func nonFinite() {
        let value: JSONValue = [.double(.nan), .double(.infinity), .double(-.infinity)]
        #expect(value.canonicalString() == "[null,null,null]")
    }

    // MARK: - Writer

    @Test("writer inserts commas and colons")
    func writerStructure() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a")
        writer.beginArray()
        writer.int(1)
        writer.double(2.5)
        writer.string("x/y")
        writer.bool(true)
        writer.bool(false)
        writer.null()
        writer.beginObject()
        writer.endObject()
        writer.beginArray()
        writer.endArray()
        writer.endArray()
        writer.key("b")
        writer.value(["z": 1, "y": [2, 3]])
        writer.key("c")
        writer.int(Int(-7))
        writer.endObject()
        #expect(writer.string == #"{"a":[1,2.5,"x/y",true,false,null,{},[]],"b":{"y":[2,3],"z":1},"c":-7}"#)

        let taken = writer.takeBytes()
        #expect(String(decoding: taken, as: UTF8.self).hasPrefix("{\"a\""))
        #expect(writer.bytes.isEmpty)
        writer.string("next")
        #expect(writer.string == #""next""#)
    }

    @Test("writer can append to existing bytes")
    func writerAppending() {
        var writer = JSONWriter(appendingTo: Array("prefix ".utf8))
        writer.beginArray()
        writer.int(1)
        writer.endArray()
        #expect(writer.string == "prefix [1]")
    }

    // MARK: - Accessors and literals

    @Test("accessors")
    func accessors() {
        let value: JSONValue = ["s": "text", "i": 3, "d": 1.5, "b": true, "n": nil, "a": [1, 2], "o": ["k": "v"]]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["i"]?.intValue == 3)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["d"]?.doubleValue == 1.5)
        #expect(value["d"]?.intValue == nil)
        #expect(value["b"]?.boolValue == true)
        #expect(value["n"]?.isNull == true)
        #expect(value["a"]?.arrayValue == [1, 2])
        #expect(value["a"]?[1] == 2)
        #expect(value["a"]?[2] == nil)
        #expect(value["o"]?.objectValue == ["k": "v"])
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["s"] == nil)
        #expect(value.description == value.canonicalString())
    }
}
