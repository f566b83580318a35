#pragma once
// A stacked horizontal bar of memory per NPU by category (weights, gradients, optimizer states,
// activations) against the HBM capacity, drawn as a vertical line. The scale is the larger of
// the total and the capacity, so an out-of-memory configuration visibly overshoots the line.

#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

namespace astrolabe::widgets {

class MemoryBar : public QWidget {
    Q_OBJECT

public:
    struct Segment {
        QString label;
        double bytes = 0;
        QColor color;
    };

    explicit MemoryBar(QWidget* parent = nullptr);

    void setMemory(double weights, double gradients, double optimizer, double activations,
                   double capacity);
    void clear();

    const QVector<Segment>& segments() const { return m_segments; }
    double capacity() const { return m_capacity; }
    double total() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QVector<Segment> m_segments;
    double m_capacity = 0;
};

} // namespace astrolabe::widgets
