extension SnapshotDiff {
    /// The same changes with every item's content passed through `transform`: a diff
    /// computed on contents cheap to compare (shared references, compact forms) and then
    /// given the contents its readers want, for the few items it carries.
    public func mapItemContents<NewContent: Equatable & Sendable>(
        _ transform: (ItemContent) throws -> NewContent
    ) rethrows -> SnapshotDiff<SectionID, SectionContent, ItemID, NewContent> {
        typealias Mapped = SnapshotDiff<SectionID, SectionContent, ItemID, NewContent>
        func item(_ x: Item) throws -> Mapped.Item { Mapped.Item(id: x.id, content: try transform(x.content)) }
        let sectionChanges = Mapped.SectionChanges(
            deleted: sections.deleted,
            inserted: try sections.inserted.map { x in
                Mapped.SectionInsertion(index: x.index, section: Mapped.Section(
                    id: x.section.id, content: x.section.content, items: try x.section.items.map(item)))
            },
            updated: sections.updated.map { Mapped.SectionHeader(id: $0.id, content: $0.content) },
            moved: sections.moved.map { Mapped.SectionMove(id: $0.id, from: $0.from, to: $0.to) })
        func position(_ p: ItemPosition) -> Mapped.ItemPosition { Mapped.ItemPosition(section: p.section, index: p.index) }
        let itemChanges = Mapped.ItemChanges(
            deleted: items.deleted.map { Mapped.ItemDeletion(id: $0.id, section: $0.section) },
            inserted: try items.inserted.map { Mapped.ItemInsertion(section: $0.section, index: $0.index, item: try item($0.item)) },
            moved: items.moved.map { Mapped.ItemMove(id: $0.id, from: position($0.from), to: position($0.to)) },
            updated: try items.updated.map { Mapped.ItemUpdate(section: $0.section, item: try item($0.item)) })
        return Mapped(sections: sectionChanges, items: itemChanges)
    }
}
