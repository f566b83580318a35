#pragma once
// The request timeline of a serving run: one row per request, phases coloured (RequestRows.h),
// a time axis on top. Zoom and pan as the training timeline does, through the same pure pieces
// (TimeMapper, TimeAxis, ZoomHistory): the wheel zooms time around the pointer (a burst of
// steps is one history entry), Shift+wheel scrolls the rows, Ctrl+wheel zooms the rows around
// the pointer, a drag pans time, a click selects a request. The picture is cached per (time
// window, rows, size) and replayed; the selection is drawn live over it.

#include "serving/RequestRows.h"
#include "timeline/ZoomHistory.h"

#include <QElapsedTimer>
#include <QImage>
#include <QWidget>
#include <memory>

namespace astrolabe::widgets {

class RequestTimeline : public QWidget {
    Q_OBJECT
public:
    explicit RequestTimeline(QWidget* parent = nullptr);

    /// Shows every request over the whole run; nullptr: nothing.
    void setResult(std::shared_ptr<const serving::ServingResult> result);
    const TimeMapper& mapper() const { return m_mapper; }
    const RowWindow& rows() const { return m_rows; }
    int selected() const { return m_selected; }
    void select(int request);
    /// Shows [t0, t1) picoseconds (clamped to the run) and records the window left.
    void setWindow(int64_t t0Ps, int64_t t1Ps);
    void setRows(const RowWindow& rows);
    /// factor > 1 zooms in around x (widget coordinates).
    void zoomAround(double x, double factor);
    void showAll();
    bool back();
    bool forward();
    const ZoomHistory& history() const { return m_history; }
    /// The plot area (below the axis) in widget coordinates.
    QRect plotRect() const;
    /// Times the picture was rebuilt (a window or size change), not replayed.
    int rebuilds() const { return m_rebuilds; }

    QSize sizeHint() const override { return {900, 360}; }

signals:
    void requestClicked(int request);
    void windowChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void applyWindow(int64_t t0, int64_t t1);
    double runEnd() const;
    void rebuildIfStale();

    std::shared_ptr<const serving::ServingResult> m_result;
    TimeMapper m_mapper;
    RowWindow m_rows;
    /// The Ctrl+wheel zoom's window in fractional rows, while m_rows is its rounding: steps in
    /// and back out return where they started, and the row under the pointer stays put.
    double m_exactFirst = 0, m_exactCount = 0;
    ZoomHistory m_history;
    QImage m_picture;
    TimeMapper m_pictureMapper;
    RowWindow m_pictureRows;
    bool m_pictureValid = false;
    int m_selected = -1;
    int m_rebuilds = 0;
    QPoint m_pressPos, m_lastPos;
    bool m_moved = false;
    QElapsedTimer m_lastWheel;
};

} // namespace astrolabe::widgets
