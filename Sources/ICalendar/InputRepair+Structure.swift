extension InputRepair {
    /// How stage 2 changes one physical line.
    enum Edit {
        /// Removed (with the warning already logged).
        case drop
        /// A broken fold: written as a continuation line (one space in front), so that
        /// unfolding joins it to the line before exactly as it stood.
        case join
        /// The first `n` bytes (white space before `BEGIN:VCALENDAR`) removed.
        case strip(Int)
    }

    /// Joins broken folds, skips lines that are not content lines, and drops white space
    /// before `BEGIN:VCALENDAR`. `bytes` has no bare CR (stage 1 made them CRLF).
    ///
    /// Lines are read one at a time (`CRLFLines`), not gathered into an array first:
    /// a clean file of a million lines needs no edit, and only a property line without
    /// its ':' looks at the lines after it.
    static func repairStructure(_ bytes: UnsafeBufferPointer<UInt8>, _ warnings: inout WarningLog) -> RepairedInput {
        var edits: [Int: Edit] = [:]
        var depth = 0
        var sawBegin = false
        var leadingWhiteSpace = false
        // The property line being read (its first physical line) and whether its ':' was seen.
        var property: Int?
        var propertyHasColon = true

        /// A property line that ended without its ':' is not a content line: skip all of it.
        func dropUnfinishedProperty(before end: Int) {
            guard let start = property, !propertyHasColon else { return }
            for k in start..<end { edits[k] = .drop }
            warnings.add("unparseable line", line: start + 1, "not a content line (no ':' after the property name); skipped")
            property = nil
        }

        var lines = 0
        for (index, line) in CRLFLines(bytes) {
            lines = index + 1
            let r = line.content
            guard let first = r.first.map({ bytes[$0] }) else {
                // An empty line inside a component would end a fold for libical (Mozilla
                // Calendar 1.0 wrote `UID`, an empty line, ` :956630271`): it carries
                // nothing, so it goes, and the fold holds.
                if depth > 0 { edits[index] = .drop }
                continue
            }
            let isSpace = first == 32 || first == 9
            if depth == 0 {
                if !sawBegin, isSpace {
                    var k = r.lowerBound
                    while k < r.upperBound, bytes[k] == 32 || bytes[k] == 9 { k += 1 }
                    if k == r.upperBound {
                        edits[index] = .drop
                    } else if CalendarScanner.matchesUpper(bytes, k, "BEGIN:VCALENDAR") {
                        edits[index] = .strip(k - r.lowerBound)
                        depth = 1
                        sawBegin = true
                    } else {
                        continue // not iCalendar: the scanner says so
                    }
                    if !leadingWhiteSpace {
                        leadingWhiteSpace = true
                        warnings.add("white space before BEGIN", line: index + 1, "white space before BEGIN:VCALENDAR; ignored")
                    }
                    continue
                }
                if CalendarScanner.matchesUpper(bytes, r.lowerBound, "BEGIN:") { depth = 1; sawBegin = true; continue }
                if sawBegin, !isSpace, !CalendarScanner.matchesUpper(bytes, r.lowerBound, "END:") {
                    // After END:VCALENDAR (a caching proxy's `X-COMMENT:Cached from ...`).
                    edits[index] = .drop
                    warnings.add("after the end", line: index + 1, "content after END:VCALENDAR; skipped")
                }
                continue
            }
            if isSpace {
                // A continuation line: it may bring the ':' of a property split before it.
                if property != nil, !propertyHasColon, bytes[r].contains(58) { propertyHasColon = true }
                continue
            }
            var nameEnd = r.lowerBound
            while nameEnd < r.upperBound, CalendarScanner.isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let next: UInt8? = nameEnd < r.upperBound ? bytes[nameEnd] : nil
            let nameLength = nameEnd - r.lowerBound
            if next == 58, (nameLength == 5 && CalendarScanner.matchesUpper(bytes, r.lowerBound, "BEGIN"))
                || (nameLength == 3 && CalendarScanner.matchesUpper(bytes, r.lowerBound, "END")) {
                dropUnfinishedProperty(before: index)
                depth += nameLength == 5 ? 1 : -1
                property = nil
                continue
            }
            // The ':' may come in the continuation lines after this one. (The name before
            // `nameEnd` holds none; in most lines it comes right after the name.)
            var hasColon = next == 58 || ByteSearch.firstIndex(of: 58, in: bytes, from: nameEnd, to: r.upperBound) != nil
            var ahead = line.next
            while !hasColon, ahead < bytes.count {
                let later = physicalLine(bytes, at: ahead)
                ahead = later.next
                // Empty lines between (dropped above) do not end the fold.
                guard let f = later.content.first else { continue }
                guard bytes[f] == 32 || bytes[f] == 9 else { break }
                hasColon = bytes[later.content].contains(58)
            }
            if property != nil, !propertyHasColon {
                // The property before has no ':' yet: this line is the rest of it.
                edits[index] = .join
                warnings.add("broken fold", line: index + 1, "broken fold: a line continues the one before without a leading space; joined")
                if hasColon { propertyHasColon = true }
                continue
            }
            if nameLength > 0, next == 58 || next == 59 || (next == nil && hasColon) {
                property = index
                propertyHasColon = hasColon
                continue
            }
            // Text, not a property: no ':' at all, or (Confluence: `...;CN=Danie` then
            // `l Latham;CUTYPE=INDIVIDUAL:mailto:...`) it starts the way text does, not
            // with an upper-case name as every exporter writes them. A name and `=`
            // (`ORGANIZER="mailto:..."`, Apple's `X-APPLE-RADIUS=49.9` on a line of its own)
            // is a broken property, not the rest of the line before: it is skipped.
            let startsLikeText = !(first >= 65 && first <= 90)
            let brokenProperty = !startsLikeText && nameLength > 0 && next == 61
            if property != nil, !brokenProperty, !hasColon || startsLikeText {
                edits[index] = .join
                warnings.add("broken fold", line: index + 1, "broken fold: a line that is not a content line after a content line; joined to it")
                continue
            }
            edits[index] = .drop
            let reason = nameLength == 0 ? "no property name" : hasColon ? "invalid character in the property name" : "no ':'"
            warnings.add("unparseable line", line: index + 1, "not a content line (\(reason)); skipped")
            property = nil
        }
        dropUnfinishedProperty(before: lines)
        guard !edits.isEmpty else { return RepairedInput() }
        return rebuild(bytes, edits)
    }

    /// The file with `edits` (by 0-based physical line) applied, and where each remaining
    /// line came from.
    static func rebuild(_ bytes: UnsafeBufferPointer<UInt8>, _ edits: [Int: Edit]) -> RepairedInput {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 64)
        var map: [Int] = []
        var dropped = false
        for (index, line) in CRLFLines(bytes) {
            var content = line.content
            switch edits[index] {
            case .drop?: dropped = true; continue
            case .join?: out.append(32)
            case .strip(let n)?: content = (content.lowerBound + n)..<content.upperBound
            case nil: break
            }
            out.append(contentsOf: bytes[content])
            switch line.end {
            case 1: out.append(10)
            case 2, 3: out.append(contentsOf: [13, 10])
            default: break
            }
            map.append(index + 1)
        }
        return RepairedInput(bytes: out, lineMap: dropped ? map : nil)
    }
}
