import Testing
import AgendaText
import CanonicalJSON
import FeedProtocol
@testable import TerminalAgenda

@Suite struct CalendarPaletteTests {
    @Test func coloursFollowTheNameAndStayPut() {
        var palette = CalendarPalette(names: ["work", "home"])
        let home = palette.color(for: "home"), work = palette.color(for: "work")
        #expect(home == CalendarColors.color(for: "home"), "agenda's and the dashboard's colour")
        palette.learn(["aaa", "zoo", "home"])
        #expect(palette.names == ["aaa", "home", "work", "zoo"])
        #expect(palette.color(for: "home") == home, "a calendar sorting first recolours no other")
        #expect(palette.color(for: "work") == work)
        #expect(CalendarPalette.RGB(66, 133, 244).xterm256 == 16 + 36 * 1 + 6 * 2 + 5)
        #expect(CalendarPalette.RGB(229, 57, 53).basic == 1, "red")
    }

    @Test func hexColours() {
        #expect(CalendarPalette.RGB(hex: "#ff2968") == CalendarPalette.RGB(255, 41, 104))
        #expect(CalendarPalette.RGB(hex: "#1F77B4") == CalendarPalette.RGB(31, 119, 180))
        #expect(CalendarPalette.RGB(hex: "#f0a") == CalendarPalette.RGB(255, 0, 170))
        for bad in ["", "#", "ff0000", "#ff00", "#ff00000", "#gg0000", "#+f0000", "#-f0000", "turquoise", "#ｆｆ0000", " #ff0000"] {
            #expect(CalendarPalette.RGB(hex: bad) == nil, "\(bad)")
        }
        let status = FeedStatus(fields: ["calendar_colors": ["work": "#FF0000", "home": "#0f0", "named": "turquoise", "odd": 7]])
        #expect(CalendarPalette.colors(from: status.calendarColors)
                == ["work": CalendarPalette.RGB(255, 0, 0), "home": CalendarPalette.RGB(0, 255, 0)])
        #expect(CalendarPalette.colors(from: nil) == [:])
        #expect(CalendarPalette.colors(from: FeedStatus(fields: ["calendar_colors": "#ff0000"]).calendarColors) == [:])
    }

    @Test func ownColoursComeFirstThePaletteForTheRest() {
        var palette = CalendarPalette(names: ["home", "named", "work"])
        palette.own = CalendarPalette.colors(from: ["work": "#ff0000", "named": "turquoise"])
        #expect(palette.color(for: "work") == CalendarPalette.RGB(255, 0, 0))
        #expect(palette.color(for: "home") == CalendarColors.color(for: "home"), "no colour of its own: the palette's, by name")
        #expect(palette.color(for: "named") == CalendarColors.color(for: "named"), "a colour name is not a hex colour: the palette's")
        #expect(palette.color(for: "work").xterm256 == 196, "xterm's red")
        palette.own = [:]
        #expect(palette.color(for: "work") == CalendarColors.color(for: "work"), "a colour taken back: the palette's again")
    }

    @Test func depthFromEnvironmentAndTerminfo() {
        let xterm = ["TERM": "xterm-256color"]
        #expect(CalendarPalette.depth(environment: xterm, terminalColors: 256) == .xterm256)
        #expect(CalendarPalette.depth(environment: ["TERM": "xterm-direct"], terminalColors: 1 << 24) == .trueColor)
        #expect(CalendarPalette.depth(environment: ["TERM": "xterm"], terminalColors: 8) == .basic)
        #expect(CalendarPalette.depth(environment: xterm.merging(["NO_COLOR": "1"]) { $1 }, terminalColors: 256) == .none)
        #expect(CalendarPalette.depth(environment: xterm.merging(["NO_COLOR": ""]) { $1 }, terminalColors: 256) == .xterm256, "an empty NO_COLOR does not count (no-color.org)")
        #expect(CalendarPalette.depth(environment: ["TERM": "dumb"], terminalColors: 256) == .none)
        #expect(CalendarPalette.depth(environment: ["TERM": "vt100"], terminalColors: 0) == .none)
    }

    @Test func directColourOnlyWhenColortermSaysSoOnA256ColourType() {
        let xterm = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
        #expect(CalendarPalette.wantsDirectColor(environment: xterm, terminalColors: 256))
        #expect(CalendarPalette.wantsDirectColor(environment: xterm.merging(["COLORTERM": "24bit"]) { $1 }, terminalColors: 256))
        #expect(!CalendarPalette.wantsDirectColor(environment: ["TERM": "xterm-256color"], terminalColors: 256), "no COLORTERM")
        #expect(!CalendarPalette.wantsDirectColor(environment: xterm.merging(["COLORTERM": "yes"]) { $1 }, terminalColors: 256))
        #expect(!CalendarPalette.wantsDirectColor(environment: xterm, terminalColors: 8), "a type of 8 colours")
        #expect(!CalendarPalette.wantsDirectColor(environment: xterm, terminalColors: -1), "a type terminfo does not know")
        #expect(!CalendarPalette.wantsDirectColor(environment: xterm, terminalColors: 1 << 24), "already direct")
        #expect(!CalendarPalette.wantsDirectColor(environment: xterm.merging(["NO_COLOR": "1"]) { $1 }, terminalColors: 256))

        let entry = CalendarPalette.directColorEntry(name: "eventctl-direct", base: "xterm-256color") ?? ""
        #expect(entry.hasPrefix("eventctl-direct|xterm-256color "))
        #expect(entry.contains("colors#0x1000000") && entry.contains("RGB") && entry.contains("use=xterm-256color,"))
        #expect(entry.contains("setaf=\\E[38;2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%dm"), "\(entry)")
        #expect(entry.contains("setab=\\E[48;2;"))
        for bad in ["", "xterm,\n\tsetaf=x", "-x", "xterm 256", "a|b", "x=y"] {
            #expect(CalendarPalette.directColorEntry(name: "eventctl-direct", base: bad) == nil, "\(bad)")
        }
    }
}
