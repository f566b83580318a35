#pragma once
// The Configuration tab: system, collectives, memory, run options and workload forms over one
// SimulationSpec. It shows a spec and requests edits; the application owns the spec, applies
// the edits (with undo) and calls setSpec() back.

#include "config/SpecEdit.h"

#include <QWidget>
#include <vector>

class QLabel;
class QBoxLayout;
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

protected:
    void resizeEvent(QResizeEvent* event) override;
    /// A new font (the interface scaled) changes the columns' widths: reflowed once laid out.
    void changeEvent(QEvent* event) override;

private:
    /// Two columns side by side when both fit the width, one above the other when not (the
    /// interface scaled up: the right column was cut off by the scroll area's edge).
    void reflowColumns();

    void refreshSummary();

    std::vector<ConfigSection*> m_sections;
    QScrollArea* m_scroll;
    QBoxLayout* m_columns = nullptr;
    QBoxLayout* m_left = nullptr;
    QBoxLayout* m_right = nullptr;
    QLabel* m_summary;
};

} // namespace astrolabe::widgets
