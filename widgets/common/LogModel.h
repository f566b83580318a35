#pragma once
// Engine messages and errors for the log dock: one row per message, newest last. The newest
// kMaxRows are kept: a day of runs and sweeps must not grow the window's memory without bound.
// A row holds its time as milliseconds and its text as UTF-8; the display text is built when
// the view asks for it.

#include <QAbstractListModel>
#include <QByteArray>
#include <QVector>

namespace astrolabe::widgets {

class LogModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum class Severity { Info, Warning, Error };
    enum Role { SeverityRole = Qt::UserRole + 1, TimestampRole };

    /// Past this many rows the oldest kDropRows go at once (one removal, not one per message).
    static constexpr int kMaxRows = 5000;
    static constexpr int kDropRows = 500;

    explicit LogModel(QObject* parent = nullptr);

    void append(Severity severity, const QString& message);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    struct Entry {
        qint64 msecsSinceEpoch;
        Severity severity;
        QByteArray utf8;
    };
    QVector<Entry> m_entries;
};

} // namespace astrolabe::widgets
