#pragma once
// A number plus a unit, for sizes, bandwidths and times. Parsing and the accepted spellings come
// from the engine's astrolabe::units, so the GUI accepts exactly what the project YAML accepts.
//
// The value is canonical: bytes (Size), bytes per second (Bandwidth) or picoseconds (Time).
// Typing "1 MiB" into the number box also works: the unit moves to the unit box.

#include <QWidget>
#include <optional>

class QComboBox;
class QLineEdit;

namespace astrolabe::widgets {

class QuantityEdit : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Size, Bandwidth, Time };

    explicit QuantityEdit(Kind kind, QWidget* parent = nullptr);

    Kind kind() const { return m_kind; }
    /// Shows the value in the unit that reads shortest and exactly ("50 GiB/s", "936.25 ns").
    void setValue(double canonical);
    /// The parsed value, or nothing while the text does not parse.
    std::optional<double> value() const;
    /// What the user sees, e.g. "50 GiB/s".
    QString text() const;
    /// Sets the number box (and unit, when the text carries one) as if typed; emits signals.
    void setTextAsTyped(const QString& text);
    bool isValid() const { return errorMessage().isEmpty(); }
    /// Why the field is invalid: the parse error first, else the external one; empty when valid.
    QString errorMessage() const { return m_parseError.isEmpty() ? m_externalError : m_parseError; }
    /// A validation message from outside (e.g. "must be greater than zero"); empty clears it.
    void setExternalError(const QString& message);

    QLineEdit* numberEdit() const { return m_number; }
    QComboBox* unitCombo() const { return m_unit; }

    static QString acceptedForms(Kind kind);
    /// The text setValue() would show, e.g. format(Kind::Bandwidth, 50 * 2^30) = "50 GiB/s".
    static QString format(Kind kind, double canonical);

signals:
    /// A user edit that parses. Not emitted by setValue().
    void valueEdited(double canonical);
    /// The text became valid or invalid; message says why (empty when valid).
    void validityChanged(bool valid, const QString& message);

private:
    void onUserEdit();
    void setParseError(const QString& message);
    void refreshError(const QString& previous);

    Kind m_kind;
    QLineEdit* m_number;
    QComboBox* m_unit;
    QString m_parseError;
    QString m_externalError;
};

/// Red border (or none) on an input, so bad fields stand out in any style.
void markInvalid(QWidget* editor, bool invalid);

} // namespace astrolabe::widgets
