#pragma once
// What a font grown by the interface scale can cut off, found in a window as it is now: each
// function lists what it found ("text (width < needed px)"), empty when nothing is cut. Used by
// the presentation-mode tests at every zoom step.

#include <QAbstractButton>
#include <QAbstractItemModel>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QStringList>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QTextDocument>
#include <QToolBar>
#include <QWidget>
#include <algorithm>
#include <gtest/gtest.h>

namespace astrolabe::gui::test {

/// Buttons (and tabs) of `root` whose text does not fit in them.
inline QStringList clippedButtons(QWidget* root) {
    QStringList out;
    for (QAbstractButton* button : root->findChildren<QAbstractButton*>()) {
        QString text = button->text();
        text.remove(QLatin1Char('&'));
        if (!button->isVisible() || text.isEmpty() || text.contains(QLatin1Char('\n')))
            continue;
        const int needed = button->fontMetrics().horizontalAdvance(text);
        if (button->width() < needed)
            out << QStringLiteral("%1 (%2 < %3 px)").arg(text).arg(button->width()).arg(needed);
    }
    return out;
}

/// Tabs of the visible tab bars of `root` that are cut off: partly outside the bar (scrolled
/// away behind its arrows) or narrower than their text.
inline QStringList clippedTabs(QWidget* root) {
    QStringList out;
    for (QTabBar* bar : root->findChildren<QTabBar*>()) {
        if (!bar->isVisible())
            continue;
        for (int i = 0; i < bar->count(); ++i) {
            QString text = bar->tabText(i);
            text.remove(QLatin1Char('&'));
            const QRect rect = bar->tabRect(i);
            if (!bar->rect().contains(rect))
                out << QStringLiteral("%1 (outside the bar: %2..%3 of %4 px)")
                           .arg(text)
                           .arg(rect.left())
                           .arg(rect.right())
                           .arg(bar->width());
            else if (rect.width() < bar->fontMetrics().horizontalAdvance(text))
                out << QStringLiteral("%1 (%2 px < its text)").arg(text).arg(rect.width());
        }
    }
    return out;
}

/// Visible tool bars of `root` that put buttons in their overflow menu ("»").
inline QStringList overflowingToolBars(QWidget* root) {
    QStringList out;
    for (QToolBar* bar : root->findChildren<QToolBar*>()) {
        if (!bar->isVisible())
            continue;
        for (QWidget* child : bar->findChildren<QWidget*>(QStringLiteral("qt_toolbar_ext_button")))
            if (child->isVisible())
                out << (bar->windowTitle().isEmpty() ? bar->objectName() : bar->windowTitle());
    }
    return out;
}

/// Texts of the visible charts of `root` that Qt Charts elided ("..."): axis labels and titles,
/// chart titles, legend entries.
inline QStringList elidedChartTexts(QWidget* root) {
    QStringList out;
    for (QChartView* view : root->findChildren<QChartView*>()) {
        if (!view->isVisible() || !view->scene())
            continue;
        for (QGraphicsItem* item : view->scene()->items()) {
            auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (!text || !text->isVisible())
                continue;
            const QString shown = text->toPlainText();
            if (shown.contains(QStringLiteral("...")) || shown.contains(QChar(0x2026)))
                out << QStringLiteral("\"%1\" in \"%2\"").arg(shown, view->chart()->title());
        }
    }
    return out;
}

/// Visible scroll areas of `root` that never scroll sideways yet hold a page wider than their
/// view: the page's right edge is cut off, out of reach.
inline QStringList cutScrollAreas(QWidget* root) {
    QStringList out;
    for (QScrollArea* area : root->findChildren<QScrollArea*>()) {
        if (!area->isVisible() || !area->widget() ||
            area->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff)
            continue;
        if (area->widget()->width() > area->viewport()->width())
            out << QStringLiteral("%1 in %2 (%3 > %4 px)")
                       .arg(area->widget()->metaObject()->className(),
                            area->parentWidget()->metaObject()->className())
                       .arg(area->widget()->width())
                       .arg(area->viewport()->width());
    }
    return out;
}

/// Visible combo boxes of `root` too narrow for their current text (the frame and the arrow
/// need room beside it), and visible table headers whose sections are narrower than their
/// text: what a font grown by the scale after the widgets were sized looks like.
inline QStringList truncatedCombosAndHeaders(QWidget* root) {
    QStringList out;
    for (QComboBox* box : root->findChildren<QComboBox*>()) {
        if (!box->isVisible() || box->isEditable() || box->currentText().isEmpty())
            continue;
        const int needed = box->fontMetrics().horizontalAdvance(box->currentText());
        if (box->width() < needed + box->height()) // the arrow is about as wide as it is high
            out << QStringLiteral("combo \"%1\" (%2 px < %3 + arrow)")
                       .arg(box->currentText())
                       .arg(box->width())
                       .arg(needed);
    }
    for (QTableView* table : root->findChildren<QTableView*>()) {
        QHeaderView* header = table->horizontalHeader();
        if (!table->isVisible() || !header->isVisible() || !table->model())
            continue;
        const int last = header->stretchLastSection() ? header->count() - 1 : header->count();
        for (int c = 0; c < last; ++c) {
            if (header->isSectionHidden(c) || header->sectionResizeMode(c) == QHeaderView::Stretch)
                continue;
            const QString text = table->model()->headerData(c, Qt::Horizontal).toString();
            if (text.isEmpty() || text.contains(QLatin1Char('\n')))
                continue;
            if (header->sectionSize(c) < header->fontMetrics().horizontalAdvance(text))
                out << QStringLiteral("header \"%1\" (%2 px < its text)")
                           .arg(text)
                           .arg(header->sectionSize(c));
        }
    }
    return out;
}

/// Visible labels of `root` whose plain text is wider or taller than the label (a rich-text or
/// word-wrapped label lays itself out, and one inside a scroll area may be scrolled to).
inline QStringList clippedLabels(QWidget* root) {
    QStringList out;
    for (QLabel* label : root->findChildren<QLabel*>()) {
        const QString text = label->text();
        if (!label->isVisible() || text.isEmpty() || label->wordWrap() ||
            Qt::mightBeRichText(text) || label->textFormat() == Qt::RichText ||
            label->textFormat() == Qt::MarkdownText)
            continue;
        const QStringList lines = text.split(QLatin1Char('\n'));
        int needed = 0;
        for (const QString& line : lines)
            needed = std::max(needed, label->fontMetrics().horizontalAdvance(line));
        const QRect room = label->contentsRect();
        const int height = label->fontMetrics().height() * static_cast<int>(lines.size());
        if (room.width() < needed || room.height() < height - 2)
            out << QStringLiteral("label \"%1\" (%2x%3 < %4x%5 px)")
                       .arg(lines.first())
                       .arg(room.width())
                       .arg(room.height())
                       .arg(needed)
                       .arg(height);
    }
    return out;
}

/// Cells of the visible tables of `root`, among the rows in view, whose text is wider than the
/// cell (the view elides it: "0.8…") or whose font is taller than the row.
inline QStringList clippedCells(QWidget* root) {
    QStringList out;
    for (QTableView* table : root->findChildren<QTableView*>()) {
        QAbstractItemModel* model = table->model();
        if (!table->isVisible() || !model)
            continue;
        const int margin =
            2 * (table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, table) + 1);
        const int first = std::max(0, table->rowAt(0));
        for (int r = first; r < std::min(model->rowCount(), first + 40); ++r)
            for (int c = 0; c < model->columnCount(); ++c) {
                const QModelIndex index = model->index(r, c);
                const QString text = index.data(Qt::DisplayRole).toString();
                if (table->isColumnHidden(c) || text.isEmpty() || text.contains(QLatin1Char('\n')))
                    continue;
                const QVariant fontData = index.data(Qt::FontRole);
                const QFontMetrics metrics(fontData.isValid() ? fontData.value<QFont>()
                                                              : table->font());
                const QRect cell = table->visualRect(index);
                const int needed = metrics.horizontalAdvance(text) + margin;
                if (cell.width() < needed || cell.height() < metrics.height())
                    out << QStringLiteral("cell \"%1\" (%2x%3 < %4x%5 px)")
                               .arg(text)
                               .arg(cell.width())
                               .arg(cell.height())
                               .arg(needed)
                               .arg(metrics.height());
            }
    }
    return out;
}

/// Everything above but labels and cells, for the window as it is now. (The side panels' lists
/// elide long run names by design; a tab's own labels and cells are checked apart.)
inline void expectNothingClipped(QWidget& window, const QString& where) {
    for (const QStringList& found :
         {clippedButtons(&window), clippedTabs(&window), overflowingToolBars(&window),
          elidedChartTexts(&window), cutScrollAreas(&window), truncatedCombosAndHeaders(&window)})
        EXPECT_TRUE(found.isEmpty())
            << where.toStdString() << ": " << found.join(QStringLiteral("; ")).toStdString();
}

} // namespace astrolabe::gui::test
