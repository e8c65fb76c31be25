import Diagnostics
import ICalendar

/// Moving the window: a day or a week later or earlier, back to today, or to a date typed
/// at the Go to prompt (every form `--from` takes, read by the same parser).
extension WatchState {
    /// The first date the window shows now.
    public var firstDate: CivilDate { from ?? today.adding(days: -pastDays) }

    /// What the prompt says a date may be (as `--from`'s error does).
    static let dateForms = "YYYY-MM-DD, today, tomorrow, yesterday, a weekday, +3d or -1w"

    /// The window `days` later (earlier when negative).
    mutating func shift(by days: Int) -> Action {
        from = firstDate.adding(days: days)
        return viewChanged()
    }

    /// The window changed: the new rows start at its first date, the selection found
    /// again in them (as at the start).
    mutating func viewChanged() -> Action {
        top = 0
        selected = nil
        return .changeView
    }

    /// Keys while the help is shown: `?` or Escape close it; the rest are ignored (`q`
    /// still quits).
    mutating func help(_ key: WatchKey) -> Action {
        switch key {
        case .character("?"), .escape, .enter, .backspace: mode = .list
        case .character("q"): return .quit
        default: break
        }
        return .redraw
    }

    /// Keys at the Go to prompt: Enter goes to the date (or says why it cannot), Escape
    /// cancels.
    mutating func goingTo(_ key: WatchKey, text: String) -> Action {
        switch key {
        case .enter:
            let typed = text.trimmingSpaces
            guard let date = CivilDate(words: typed, today: today) else {
                promptError = typed.isEmpty ? "type a date: " + Self.dateForms
                    : "invalid date '\(typed.terminalSafe.prefix(40))': expected " + Self.dateForms
                return .redraw
            }
            mode = .list
            promptError = nil
            from = date
            return viewChanged()
        case .escape:
            mode = .list
            promptError = nil
        case .backspace:
            promptError = nil
            mode = text.isEmpty ? .list : .goTo(String(text.dropLast()))
        case .character(let c) where !c.isNewline && c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }):
            if text.count < 40 { mode = .goTo(text + String(c)) }
            promptError = nil
        default: break
        }
        return .redraw
    }
}

extension String {
    /// Without spaces at either end.
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
