#pragma once
// One dimension in the stack, edited in place: block kind, size, bandwidth with its unit and
// latency with its unit. A red marker and message show an invalid value (size 1, zero
// bandwidth) instead of refusing it, so a student sees why the platform cannot run.
#include "spec/PlatformSpec.h"
#include "topology/TopologyDocument.h"

#include <QFrame>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace astrolabe::widgets {

class DimensionRow : public QFrame {
    Q_OBJECT
public:
    explicit DimensionRow(int index, QWidget* parent = nullptr);

    int index() const { return m_index; }
    void setIndex(int index);
    /// Shows the dimension without emitting edited().
    void setDimension(const DimensionSpec& dimension);
    const DimensionSpec& dimension() const { return m_dimension; }
    void setSelected(bool selected);
    bool isSelected() const { return m_selected; }
    /// Empty clears the marker.
    void setProblem(const QString& message);
    QString problem() const;

    QComboBox* kindCombo() const { return m_kind; }
    QSpinBox* sizeSpin() const { return m_size; }
    QDoubleSpinBox* bandwidthSpin() const { return m_bandwidth; }
    QComboBox* bandwidthUnitCombo() const { return m_bandwidthUnit; }
    QDoubleSpinBox* latencySpin() const { return m_latency; }
    QComboBox* latencyUnitCombo() const { return m_latencyUnit; }

signals:
    void edited(int index, const astrolabe::DimensionSpec& dimension,
                astrolabe::widgets::DimensionField field);
    void pressed(int index);
    void dragRequested(int index);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void showValues();
    void updateStyle();
    void emitEdit(DimensionField field);

    int m_index;
    DimensionSpec m_dimension;
    bool m_selected = false;
    QPoint m_pressPos;
    bool m_pressedHere = false;
    QLabel* m_badge;
    QComboBox* m_kind;
    QSpinBox* m_size;
    QDoubleSpinBox* m_bandwidth;
    QComboBox* m_bandwidthUnit;
    QDoubleSpinBox* m_latency;
    QComboBox* m_latencyUnit;
    QLabel* m_marker;
    QLabel* m_message;
};

} // namespace astrolabe::widgets
