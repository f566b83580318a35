#pragma once
// A heatmap of a rows x cols grid of values (links x time, NPU x NPU traffic), painted from a
// QImage with one pixel per cell after max-aggregation to the plot size, so a large grid costs
// one pass per resize. Hover shows the cell under the cursor.

#include <QImage>
#include <QWidget>
#include <functional>
#include <vector>

namespace astrolabe::widgets {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);

    /// values row-major; maxValue sets the top of the colour scale (<= 0: the grid's maximum).
    void setGrid(std::vector<float> values, int rows, int cols, float maxValue = 0);
    void setTitles(const QString& title, const QString& rowAxis, const QString& columnAxis);
    /// Text for the hover tooltip of a cell (row, column, value); a default is used when unset.
    void setCellText(std::function<QString(int row, int col, float value)> text);
    /// Text for the colour scale ends, e.g. "0 %" and "100 %".
    void setValueFormat(std::function<QString(float)> format);

    int rows() const { return m_rows; }
    int columns() const { return m_cols; }
    /// The grid cell under a widget position, or (-1, -1).
    QPoint cellAt(QPoint pos) const;
    QRect plotRect() const;
    /// Viridis-like colour for t in [0, 1].
    static QRgb colorFor(float t);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    QSize sizeHint() const override { return {600, 300}; }

private:
    void rebuildImage(QSize plotSize);

    std::vector<float> m_values;
    int m_rows = 0;
    int m_cols = 0;
    float m_max = 1;
    QString m_title, m_rowAxis, m_columnAxis;
    std::function<QString(int, int, float)> m_cellText;
    std::function<QString(float)> m_format;
    QImage m_image;
    QSize m_imageFor;
};

} // namespace astrolabe::widgets
