#pragma once
// A group of labelled fields over one part of a SimulationSpec. Each field is a label and an
// editor, with a message under the editor saying why the current text is invalid (the editor
// then has a red border),
// and the label turns bold with a dot when the value differs from the last run's.
//
// Fields are declared with getters and setters over the spec, so the three concerns (show a
// value, validate what is typed, request an edit) live in one place per field.

#include "config/QuantityEdit.h"
#include "config/SpecEdit.h"

#include <QGroupBox>
#include <QHash>
#include <functional>
#include <optional>
#include <vector>

class QGridLayout;
class QLabel;
class QMenu;

namespace astrolabe::widgets {

class ConfigSection : public QGroupBox {
    Q_OBJECT
public:
    template <typename T> using Getter = std::function<T(const SimulationSpec&)>;
    template <typename T> using Setter = std::function<void(SimulationSpec&, T)>;
    /// Returns an error message for a parsed value, or an empty string when it is acceptable.
    template <typename T> using Check = std::function<QString(T)>;

    explicit ConfigSection(const QString& title, QWidget* parent = nullptr);

    /// keys: the key paths naming this field (project YAML first, then ASTRA-sim's key), used to
    /// jump to the field from an error message.
    QWidget* addInt(const QString& label, const QStringList& keys, const QString& tip, int min,
                    int max, Getter<int> get, Setter<int> set);
    QWidget* addDouble(const QString& label, const QStringList& keys, const QString& tip,
                       double min, double max, int decimals, const QString& suffix,
                       Getter<double> get, Setter<double> set);
    QWidget* addCheck(const QString& label, const QStringList& keys, const QString& tip,
                      Getter<bool> get, Setter<bool> set);
    QWidget* addChoice(const QString& label, const QStringList& keys, const QString& tip,
                       const QStringList& items, Getter<int> get, Setter<int> set);
    QuantityEdit* addQuantity(const QString& label, const QStringList& keys, const QString& tip,
                              QuantityEdit::Kind kind, Getter<double> get, Setter<double> set,
                              Check<double> check = {});
    /// Free text parsed by `set`, which throws astrolabe::Error for bad text (message shown).
    QWidget* addText(const QString& label, const QStringList& keys, const QString& tip,
                     Getter<QString> get, Setter<QString> set);
    /// The last added field is enabled only when `when` holds for the current spec.
    void enableWhen(std::function<bool(const SimulationSpec&)> when);

    /// A problem of the whole spec shown under a field (the traces against the NPU count, say):
    /// a blocking one is red and makes the field invalid, another is an amber note.
    struct SpecProblem {
        QString text;
        bool blocking = true;
    };
    /// The last added field shows `check`'s problem with each spec given to setSpec(), while the
    /// field is enabled and its own text is valid.
    void checkWhen(std::function<SpecProblem(const SimulationSpec&)> check);

    /// Shows the spec's values, except where the field already shows an equal value (so text
    /// being typed is not reformatted under the cursor).
    void setSpec(const SimulationSpec& spec);
    /// Marks fields that differ from `baseline`; nullptr removes all marks.
    void setBaseline(const SimulationSpec* baseline);

    /// The editor for a key path ("system.endpoint-delay", "endpoint-delay", ...), or nullptr.
    QWidget* editorForKey(const QString& keyPath) const;
    /// The labels of fields marked as changed since the baseline.
    QStringList changedFields() const;
    /// The labels of fields whose text is currently invalid.
    QStringList invalidFields() const;
    QLabel* messageLabel(QWidget* editor) const;
    /// True when this editor's text is invalid or its spec problem blocks a run.
    bool isInvalid(const QWidget* editor) const;

    /// Emits sweepRequested for the field of this project key path ("system.chunks"); false
    /// when no field has it. The right-click menus of a field's label and of its input (after
    /// the input's own Undo, Copy, Paste...) offer it.
    bool requestSweep(const QString& keyPath);
    /// The right-click menu of a field's input: its own items, then "Sweep this setting…"
    /// (its parent is `editor`'s window; the caller shows and deletes it). Null for an input
    /// that is not a sweepable field's.
    QMenu* inputMenu(QWidget* input);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void editRequested(const astrolabe::widgets::SpecEdit& edit);
    /// "Sweep this setting…": the setting's project key path, its label and its value now.
    void sweepRequested(const QString& keyPath, const QString& label, const QString& current);

private:
    struct Field {
        QString label;
        QStringList keys;
        QLabel* labelWidget = nullptr;
        QWidget* editor = nullptr;
        QLabel* message = nullptr;
        Getter<QString> show; ///< a canonical text of the value, for change marks
        std::function<void(const SimulationSpec&)> load;
        std::function<bool(const SimulationSpec&)> enabledWhen;
        std::function<SpecProblem(const SimulationSpec&)> check;
        QString typed;       ///< why the text in the editor is invalid, or empty
        SpecProblem problem; ///< check()'s finding for the current spec
        bool changed = false;
        QString lastShown; ///< show() of the spec last given to setSpec()
    };

    Field& addRow(const QString& label, const QStringList& keys, const QString& tip,
                  QWidget* editor);
    void request(const QString& key, const QString& description,
                 std::function<void(SimulationSpec&)> apply, bool mergeable);
    void setMessage(Field& field, const QString& message);
    void showMessage(Field& field);
    void refreshMarks();

    QGridLayout* m_grid;
    std::vector<Field> m_fields;
    QHash<QObject*, QString> m_sweepInputs; ///< a field's input (and its line edits) -> key
    SimulationSpec m_spec;
    std::optional<SimulationSpec> m_baseline;
    bool m_loading = false;
};

/// Normalises key paths for matching: lower case, '-', '_' and spaces dropped.
QString normalizedKey(const QString& keyPath);

} // namespace astrolabe::widgets
