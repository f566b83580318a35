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

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    Schedule m_schedule;
    std::vector<int32_t> m_cell; ///< send index per (link, step), -1 when idle
};

class ScheduleView : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleView(QWidget* parent = nullptr);
    void setSchedule(Schedule schedule);
    ScheduleModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }

private:
    ScheduleModel* m_model;
    QTableView* m_table;
    QLabel* m_summary;
};

} // namespace astrolabe::widgets
