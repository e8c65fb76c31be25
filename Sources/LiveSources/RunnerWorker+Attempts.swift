import EventStore
import Threads

extension RunnerWorker {
    /// Starts what the schedule says is due: a URL goes to the fetch pool, a vdir or
    /// file is scanned here (reading files is this thread's work, never the feed's).
    mutating func startDue() {
        while true {
            let started = schedule.start(at: configuration.monotonic())
            guard !started.isEmpty else { return }
            for name in started {
                guard let source = sources[name] else { schedule.remove(name); continue }
                if let tokens = awaitingStart.removeValue(forKey: name) { awaitingEnd[name, default: []] += tokens }
                switch source.kind {
                case .url:
                    pool.submit(FetchPool.Job(name: name, url: source.location, etag: source.state.etag,
                                              lastModified: source.state.lastModified))
                case .vdir, .file:
                    // Re-watch first: a directory deleted and created again needs a new watch.
                    watch(source)
                    finish(syncer.syncFiles(source, now: configuration.wall().unixSeconds))
                }
            }
        }
    }

    mutating func fetched(_ name: String, _ result: Result<FetchResult, FetchFailure>) {
        guard let source = sources[name] else {
            // Removed while it was fetched: the result is of no use.
            schedule.remove(name)
            return
        }
        finish(syncer.apply(result, to: source, now: configuration.wall().unixSeconds))
    }

    /// Records an attempt's end: the schedule, the state, the log line, the refresh
    /// and any `source sync` waiting for it.
    mutating func finish(_ attempt: SyncReport) {
        var attempt = attempt
        let now = configuration.monotonic()
        let outcome: SourceScheduler.Outcome = attempt.succeeded ? .success(ttl: attempt.ttl.map { .seconds($0) }) : .failure
        if let due = schedule.finished(attempt.name, outcome, at: now) {
            attempt.source.state.nextAttempt = configuration.wall().unixSeconds + (due - now).wholeSecondsRoundedUp
        }
        sources[attempt.name] = attempt.source
        if let failure = attempt.failure {
            log(true, "source \(attempt.name): \(failure.message)")
        } else if attempt.changedEvents {
            log(false, "source \(attempt.name): \(attempt.summary)")
        }
        if attempt.changedEvents { report(.refresh) }
        statusChanged = true
        resolve(attempt.name, with: attempt)
    }

    /// Hands `attempt` to every `source sync` waiting for the source (nil: it was removed).
    mutating func resolve(_ name: String, with attempt: SyncReport?) {
        var tokens = awaitingEnd.removeValue(forKey: name) ?? []
        if attempt == nil { tokens += awaitingStart.removeValue(forKey: name) ?? [] }
        for token in tokens {
            guard answers[token] != nil else { continue }
            answers[token]!.waiting.remove(name)
            if let attempt { answers[token]!.reports.append(attempt) }
            if answers[token]!.waiting.isEmpty { answer(token) }
        }
    }

    mutating func answer(_ token: Int) {
        guard let done = answers.removeValue(forKey: token) else { return }
        // The statuses go out before the answer, so that a `status` after it shows it.
        if statusChanged {
            statusChanged = false
            publish()
        }
        report(.synced(token: token, done.reports.sorted { $0.name < $1.name }))
    }

    func publish() {
        report(.statuses(sources.values.sorted { $0.name < $1.name }.map(SourceStatus.init)))
    }
}
