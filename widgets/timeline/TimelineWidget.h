#pragma once
// The Gantt timeline: one row per NPU, grouped and collapsible by dimension coordinates.
// Mapping (TimeMapper), geometry (TimelineGeometryCache) and paint (TimelineRenderer) are kept
// apart; this class owns the state and turns input into changes of it.
//
// Input: wheel zooms around the cursor (Shift+wheel scrolls rows), drag pans, Ctrl+drag zooms to
// a rubber band, arrow keys pan and scroll, +/- zoom, Home shows everything, Alt+Left / Alt+Right
// (or Backspace) walk the zoom history. A click selects the interval under the cursor, a click
// on a group label collapses or expands it.

#include "timeline/RowLayout.h"
#include "timeline/TimeMapper.h"
#include "timeline/TimelineGeometry.h"
#include "timeline/TimelineRenderer.h"
#include "timeline/TimelineSource.h"
#include "timeline/ZoomHistory.h"

#include <QAbstractScrollArea>
#include <QElapsedTimer>
#include <memory>
#include <optional>

namespace astrolabe::widgets {

/// What is under a point of the timeline.
struct TimelineHit {
    int npu = -1;
    int displayRow = -1;
    Lane lane = Lane::Work;
    std::optional<ActivityInterval> activity;
    std::optional<PhaseSpan> phase;
};

class TimelineWidget : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);

    /// Shows a source; dimension sizes (dim 0 first) group the rows. Resets zoom and selection.
    void setSource(std::shared_ptr<const TimelineSource> source,
                   const std::vector<int>& dimensionSizes);
    const TimelineSource* source() const { return m_source.get(); }
    RowLayout& rowLayout() { return m_layout; }
    const TimeMapper& mapper() const { return m_mapper; }
    const TimelineGeometryCache& geometryCache() const { return m_cache; }
    /// Drops cached geometry (benchmarks measure cold builds with it).
    void invalidateGeometry() { m_cache.clear(); }
    /// Collapses or expands every group of one dimension level (1 = nodes, 2 = pods).
    void collapseLevel(int level, bool collapsed);

    void setWindow(int64_t t0Ps, int64_t t1Ps, bool recordHistory = true);
    /// Changes the time range one can scroll and zoom over (by default the source's own), e.g.
    /// to lay runs of different lengths on one shared axis; then shows all of it.
    void setTimeLimits(int64_t beginPs, int64_t endPs);
    void zoomBy(double factor, double x);
    void showAll();
    void goBack();
    void goForward();
    bool canGoBack() const { return m_history.canGoBack(); }
    bool canGoForward() const { return m_history.canGoForward(); }
    void collapseAll(bool collapsed);

    /// Highlights activities whose name contains text (case-insensitive); returns how many
    /// distinct names match. Empty text clears the highlight.
    int setSearchText(const QString& text);
    /// Selects the next match after the selection and scrolls to it; false when none.
    bool findNext();
    void setShowCriticalPath(bool show);

    TimelineHit hitTest(QPoint viewportPos) const;
    void selectActivity(int npu, const ActivityInterval& activity, bool scrollTo);
    void clearSelection();
    std::optional<ActivityInterval> selectedActivity() const { return m_selected; }

    /// The time cursor (a vertical line; "Watch a collective" follows it). Pressing or dragging
    /// on the time axis moves it and emits cursorMoved; setting it does not emit.
    void setCursorTime(std::optional<int64_t> ps);
    std::optional<int64_t> cursorTime() const { return m_cursor; }

    /// Paints what the viewport shows (for export) at the viewport's size.
    void render(QPainter& painter) const;
    QSize renderSize() const;
    /// Scrolls the rows so that display row `row` is visible.
    void ensureRowVisible(int row);
    /// The row labels' width and the time axis' height, at the interface scale.
    int labelWidth() const;
    int axisHeight() const;
    /// Presentation mode changed the scale or theme: rows, axis and labels are laid out again.
    void applyInterfaceScale();

signals:
    void activitySelected(const astrolabe::ActivityInterval& activity);
    void selectionCleared();
    void windowChanged(qint64 t0Ps, qint64 t1Ps);
    void historyChanged();
    void cursorMoved(qint64 ps);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    TimelinePaintState paintState() const;
    void updateMapperWidth();
    void updateScrollBars();
    void updateHover(QPoint pos);
    void rebuildCriticalOverlay();
    void applyWindow(int64_t t0, int64_t t1);
    void moveCursorTo(int x);
    void paintCursor(QPainter& painter) const;

    static constexpr int kLabelWidth = 150;
    static constexpr int kAxisHeight = 30;

    std::shared_ptr<const TimelineSource> m_source;
    RowLayout m_layout;
    TimeMapper m_mapper;
    mutable TimelineGeometryCache m_cache;
    TimelineOverlay m_overlay;
    uint64_t m_overlayVersion = 1;
    ZoomHistory m_history;
    TimelineMark m_hover;
    TimelineMark m_selection;
    std::optional<ActivityInterval> m_selected;

    std::optional<int64_t> m_cursor;

    enum class Drag { None, Pan, RubberBand, Cursor };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_moved = false;
    QRect m_rubberBand;
    QElapsedTimer m_lastWheel;
    std::pair<int64_t, int64_t> m_panStartWindow;
};

} // namespace astrolabe::widgets
