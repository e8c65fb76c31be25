import Foundation
import Testing
import TestSupport

/// Dependencies point downward only: docs/architecture.md's layer table places every
/// module of Sources/ and Benchmarks/ on a layer, and a module may import (and list in Package.swift)
/// only modules on lower layers. The table is read from the document itself, so the map
/// and the check cannot drift apart.
@Suite struct ModuleLayerTests {
    @Test func everyImportPointsDown() throws {
        let layers = try ModuleLayers.fromArchitectureDocument()
        let modules = try ModuleLayers.sourceModules()
        #expect(Set(layers.layerOf.keys) == Set(modules.keys),
                "docs/architecture.md's layer table and Sources/ list different modules")
        let problems = layers.violations(modules)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func everyPackageDependencyPointsDown() throws {
        let layers = try ModuleLayers.fromArchitectureDocument()
        let package = try String(contentsOf: Products.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = ModuleLayers.packageDependencies(package)
        #expect(targets.count > 10, "Package.swift's targets were not found")
        let problems = layers.violations(targets.filter { layers.layerOf[$0.key] != nil })
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// A dependency Package.swift declares is imported by the module: one never imported
    /// only hides the real layering (and links what is not used).
    @Test func everyDeclaredDependencyIsImported() throws {
        let package = try String(contentsOf: Products.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let problems = ModuleLayers.unusedDependencies(ModuleLayers.packageDependencies(package), imported: try ModuleLayers.sourceModules())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        // The check itself: a declared dependency nobody imports is found.
        #expect(ModuleLayers.unusedDependencies(["Mid": ["Low", "Unused"]], imported: ["Mid": ["Low", "Foundation"]])
                == ["Mid declares a dependency on Unused and never imports it"])
    }

    /// The check itself: an upward import, a sideways one and an unplaced module are found.
    @Test func upwardAndSidewaysImportsAreReported() {
        let layers = ModuleLayers(layerOf: ["Low": 1, "Mid": 2, "Peer": 2, "High": 3])
        let problems = layers.violations(["Low": ["Mid"], "Mid": ["Peer", "Low", "Foundation"], "High": ["Mid", "Nowhere"]])
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.contains("Low imports Mid") })
        #expect(problems.contains { $0.contains("Mid imports Peer") })
    }
}

/// The layer table of docs/architecture.md and the checks against it.
struct ModuleLayers {
    /// Each project module's layer; system modules (Foundation, Glibc, …) are not in it.
    var layerOf: [String: Int]

    /// Reads the rows `| N | ModuleA, ModuleB |` below the heading `### Layers`.
    static func fromArchitectureDocument() throws -> ModuleLayers {
        let url = Products.repositoryRoot.appendingPathComponent("docs/architecture.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let start = text.range(of: "### Layers") else { throw CocoaError(.fileReadCorruptFile) }
        var layers: [String: Int] = [:]
        for line in text[start.upperBound...].split(separator: "\n").prefix(40) where line.hasPrefix("|") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let layer = Int(cells[0]) else { continue }
            for name in cells[1].split(separator: ",") {
                layers[name.trimmingCharacters(in: CharacterSet(charactersIn: " `"))] = layer
            }
        }
        return ModuleLayers(layerOf: layers)
    }

    /// Every module under Sources/ and Benchmarks/ (a directory) and the modules its Swift
    /// files import.
    static func sourceModules() throws -> [String: Set<String>] {
        var modules: [String: Set<String>] = [:]
        for tree in ["Sources", "Benchmarks"] {
            modules.merge(try Self.modules(in: tree)) { $1 }
        }
        return modules
    }

    private static func modules(in tree: String) throws -> [String: Set<String>] {
        let sources = Products.repositoryRoot.appendingPathComponent(tree)
        let files = FileManager.default
        var modules: [String: Set<String>] = [:]
        for module in try files.contentsOfDirectory(atPath: sources.path) where !module.hasPrefix(".") {
            var imports = Set<String>()
            let directory = sources.appendingPathComponent(module)
            for case let file as String in files.enumerator(atPath: directory.path) ?? FileManager.DirectoryEnumerator()
            where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                imports.formUnion(importedModules(text))
            }
            modules[module] = imports
        }
        return modules
    }

    /// `import X`, `@testable import X`, `@_exported import X`, `import struct X.Y`.
    static func importedModules(_ text: String) -> Set<String> {
        var names = Set<String>()
        for line in text.split(separator: "\n") {
            var words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
            guard words.first == "import", words.count >= 2 else { continue }
            words.removeFirst()
            if words.count >= 2 { words.removeFirst() }  // the kind of `import struct X.Y`
            names.insert(String(words[0].prefix { $0 != "." }))
        }
        return names
    }

    /// Each target of Package.swift and the targets it depends on.
    static func packageDependencies(_ manifest: String) -> [String: Set<String>] {
        var targets: [String: Set<String>] = [:]
        let pattern = /\.(?:target|executableTarget)\(name: "([\w-]+)",\s*dependencies: \[([^\]]*)\]/
        for match in manifest.matches(of: pattern) {
            targets[String(match.1)] = Set(match.2.split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\""))
            })
        }
        return targets
    }

    /// One line per dependency of a module of Sources/ that none of its files imports
    /// (test targets, not in `imported`, are not checked).
    static func unusedDependencies(_ declared: [String: Set<String>], imported: [String: Set<String>]) -> [String] {
        declared.sorted { $0.key < $1.key }.flatMap { module, dependencies -> [String] in
            guard let imports = imported[module] else { return [] }
            return dependencies.subtracting(imports).sorted().map { "\(module) declares a dependency on \($0) and never imports it" }
        }
    }

    /// One line per import of a module on the same layer or above.
    func violations(_ modules: [String: Set<String>]) -> [String] {
        modules.sorted { $0.key < $1.key }.flatMap { module, imports -> [String] in
            guard let own = layerOf[module] else { return [] }
            return imports.sorted().compactMap { name in
                guard let other = layerOf[name], other >= own else { return nil }
                return "\(module) imports \(name): layer \(own) may import only layers below it, and \(name) is on layer \(other)"
            }
        }
    }
}
