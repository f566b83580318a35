#pragma once
// An undo step over a value kept outside the project's SimulationSpec (the model builder's
// GeneratorSpec): the value before and after, and how to show one. The edit has already been
// made when the step is pushed, so the first redo() does nothing. Consecutive steps with the same
// merge key (one field typed digit by digit) merge into one.

#include <QString>
#include <QUndoCommand>
#include <functional>

namespace astrolabe::gui {

template <typename Value> class SnapshotCommand : public QUndoCommand {
public:
    /// `commandId` separates kinds of snapshot commands on one stack (QUndoCommand::id);
    /// an empty `mergeKey` never merges.
    SnapshotCommand(int commandId, QString mergeKey, const QString& text, Value before, Value after,
                    std::function<void(const Value&)> show)
        : QUndoCommand(text)
        , m_id(commandId)
        , m_mergeKey(std::move(mergeKey))
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_show(std::move(show)) {}

    int id() const override { return m_id; }
    bool mergeWith(const QUndoCommand* other) override {
        const auto* o = static_cast<const SnapshotCommand*>(other);
        if (m_mergeKey.isEmpty() || o->m_mergeKey != m_mergeKey)
            return false;
        m_after = o->m_after;
        return true;
    }
    void redo() override {
        if (m_done)
            m_show(m_after);
        m_done = true;
    }
    void undo() override { m_show(m_before); }

private:
    int m_id;
    QString m_mergeKey;
    Value m_before;
    Value m_after;
    std::function<void(const Value&)> m_show;
    bool m_done = false;
};

} // namespace astrolabe::gui
