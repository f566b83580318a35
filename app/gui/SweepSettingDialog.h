#pragma once
// "Sweep this setting…": a small dialog that turns one setting of the configuration panel into
// a sweep file (docs/sweeps.md) beside the project - its values listed, or from/to in a number
// of steps, evenly or on a log scale - which the main window then runs. The text making is in
// free functions, testable without a window.

#include <QDialog>
#include <string>
#include <vector>

class QButtonGroup;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QCheckBox;

namespace astrolabe::gui {

/// `steps` values from `from` to `to` ("50 GiB/s" to "400 GiB/s"): numbers with the same unit
/// text after them, evenly spaced or (log) in equal ratios, written with at most 6 significant
/// digits. Throws astrolabe::Error (Validation) when a bound is not a number, the units
/// differ, steps < 2, or a log range does not stay above zero.
std::vector<std::string> sweepRangeValues(const std::string& from, const std::string& to, int steps,
                                          bool log);
/// Where the dialog starts for a setting whose value is `current`: five distinct values around
/// it. A quantity x > 0 (with a unit, or not a whole number) spans x/2 to 2x on a log scale
/// ("4 GiB/s": 2 to 8 GiB/s, ratio sqrt 2); a whole number n > 0 without a unit, a list of
/// powers-of-two multiples n/4 .. 4n kept at 1 or more ("4": 1, 2, 4, 8, 16; the range from its
/// first to its last on a log scale); anything else (0, a name such as "LIFO") a list of just
/// the current value, to be extended.
struct SweepStart {
    bool list = false;
    std::string listText;
    std::string from, to;
    int steps = 5;
    bool log = false;
};
SweepStart sweepStartFor(const std::string& current);
/// "1, 2, 4" -> {"1", "2", "4"}; empty items are dropped.
std::vector<std::string> sweepListValues(const std::string& text);
/// The axis name for a key path: its last key without index ("platform.dimensions[0].bandwidth"
/// -> "bandwidth").
std::string sweepAxisName(const std::string& keyPath);
/// A sweep file over one axis of the project `projectFile` (a path relative to the sweep file).
std::string sweepFileText(const std::string& name, const std::string& projectFile,
                          const std::string& keyPath, const std::vector<std::string>& values);

/// Writes the sweep of `keyPath` over `values` beside the project file as
/// "sweep-<axis>.yaml" and returns its path. A file there with the same text is reused (running
/// it again resumes it); other text gets the next free "sweep-<axis>-N.yaml". Throws
/// astrolabe::Error when the file cannot be written.
QString writeSettingSweep(const QString& projectPath, const QString& keyPath,
                          const std::vector<std::string>& values);

class SweepSettingDialog : public QDialog {
    Q_OBJECT
public:
    /// For the setting at `keyPath` shown as `label`, now `current`.
    SweepSettingDialog(const QString& keyPath, const QString& label, const QString& current,
                       QWidget* parent = nullptr);

    /// The values chosen; throws astrolabe::Error when they make no sense.
    std::vector<std::string> values() const;

    QRadioButton* listMode() const { return m_listMode; }
    QLineEdit* listEdit() const { return m_list; }
    QLineEdit* fromEdit() const { return m_from; }
    QLineEdit* toEdit() const { return m_to; }
    QSpinBox* stepsBox() const { return m_steps; }
    QCheckBox* logBox() const { return m_log; }

    void accept() override; ///< refuses (with the reason shown) while the values are wrong

private:
    void preview();

    QString m_keyPath;
    QRadioButton* m_listMode;
    QRadioButton* m_rangeMode;
    QLineEdit* m_list;
    QLineEdit* m_from;
    QLineEdit* m_to;
    QSpinBox* m_steps;
    QCheckBox* m_log;
    QLabel* m_preview;
};

} // namespace astrolabe::gui
