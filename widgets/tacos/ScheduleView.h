#pragma once
// A TACOS schedule on screen (docs/tacos.md): one row per link (src -> dst), one column per TEN
// step, the chunk that starts on the link in that step in the cell, coloured by chunk so that a
// chunk's path can be followed; reduce-scatter steps tinted apart from all-gather steps. The
// tooltip gives the chunk's start and end. Shows a schedule; never synthesizes one.

#include "tacos/Synthesizer.h"

#include <QAbstractTableModel>
#include <QWidget>

class QLabel;
class QTableView;

namespace astrolabe::widgets {

class ScheduleModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit ScheduleModel(QObject* parent = nullptr);
    void setSchedule(Schedule schedule);
    const Schedule& schedule() const { return m_schedule; }
    /// The step whose column is highlighted (the one running at the timeline's cursor); -1 none.
    void setActiveStep(int step);
    int activeStep() const { return m_active; }
    /// When step `step` starts: its earliest chunk send, ns from the collective's start.
    double stepStartNs(int step) const { return m_stepStart.at(static_cast<size_t>(step)); }
    /// The step running at `ns` (the last that started at or before it), -1 before the first
    /// and from the schedule's finish on.
    int stepAt(double ns) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    Schedule m_schedule;
    std::vector<int32_t> m_cell; ///< send index per (link, step), -1 when idle
    std::vector<double> m_stepStart;
    int m_active = -1;
};

class ScheduleView : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleView(QWidget* parent = nullptr);
    void setSchedule(Schedule schedule);
    ScheduleModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }
    QLabel* cursorLabel() const { return m_cursor; }
    /// Follows the timeline's cursor: highlights the step running at `ps` (the microbenchmark's
    /// collective starts at time 0, as the schedule does) and scrolls it into view.
    void setCursorTime(qint64 ps);

private:
    ScheduleModel* m_model;
    QTableView* m_table;
    QLabel* m_summary;
    QLabel* m_cursor;
};

} // namespace astrolabe::widgets
