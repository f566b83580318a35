#pragma once
// The Configuration tab: system, collectives, memory, run options and workload forms over one
// SimulationSpec. It shows a spec and requests edits; the application owns the spec, applies
// the edits (with undo) and calls setSpec() back.

#include "config/SpecEdit.h"

#include <QWidget>
#include <vector>

class QLabel;
class QScrollArea;

namespace astrolabe::widgets {

class ConfigSection;

class ConfigurationPanel : public QWidget {
    Q_OBJECT
public:
    /// How long a field found by focusKey() stays highlighted.
    static constexpr int kHighlightMs = 4000;

    explicit ConfigurationPanel(QWidget* parent = nullptr);

    void setSpec(const SimulationSpec& spec);
    /// The spec of the last run: fields that differ are marked. nullptr = no run yet.
    void setBaseline(const SimulationSpec* baseline);

    /// Scrolls to, focuses and highlights the field named by an error's key path. False when no
    /// field has that key.
    bool focusKey(const QString& keyPath);
    QWidget* editorForKey(const QString& keyPath) const;
    /// Scrolls to and focuses the first field with a validation message; false when none.
    bool focusFirstInvalid();

    QStringList changedFields() const;
    QStringList invalidFields() const;
    const std::vector<ConfigSection*>& sections() const { return m_sections; }

    /// "Sweep this setting…" for the field of this key path; false when no field has it.
    bool requestSweep(const QString& keyPath);

signals:
    void editRequested(const astrolabe::widgets::SpecEdit& edit);
    /// A field's "Sweep this setting…": its project key path, label and current value.
    void sweepRequested(const QString& keyPath, const QString& label, const QString& current);

private:
    void refreshSummary();

    std::vector<ConfigSection*> m_sections;
    QScrollArea* m_scroll;
    QLabel* m_summary;
};

} // namespace astrolabe::widgets
