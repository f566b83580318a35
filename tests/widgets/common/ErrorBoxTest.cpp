// Issue 14 item 5: a failed run with 120 missing trace files made a 2,158-px-tall message box
// with its OK button off-screen. Errors now fit: a summary, and the whole text in a
// scrollable, selectable details area.
#include "common/ErrorBox.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QTest>
#include <QTextEdit>
#include <gtest/gtest.h>

using namespace astrolabe::widgets;

namespace {

QString manyMissingFiles(int count) {
    QStringList lines{QStringLiteral("Quick start #3 failed:")};
    for (int i = 0; i < count; ++i)
        lines << QStringLiteral("missing trace file /home/user/traces/llama-70b/rank.%1.et").arg(i);
    return lines.join(u'\n');
}

QAbstractButton* detailsButton(QMessageBox* box) {
    for (QAbstractButton* b : box->buttons())
        if (box->buttonRole(b) == QMessageBox::ActionRole)
            return b;
    return nullptr;
}

} // namespace

TEST(ErrorText, AShortMessageIsItsOwnSummary) {
    const ErrorText text = splitErrorText(QStringLiteral("network.yml:3:5: bandwidth: expected a "
                                                         "positive number, found \"-1\"\n"));
    EXPECT_EQ(text.summary, QStringLiteral("network.yml:3:5: bandwidth: expected a positive "
                                           "number, found \"-1\""));
    EXPECT_TRUE(text.details.isEmpty());
}

TEST(ErrorText, ManyLinesKeepTheFirstAndCountTheRest) {
    const QString message = manyMissingFiles(120);
    const ErrorText text = splitErrorText(message);
    const QStringList lines = text.summary.split(u'\n');
    EXPECT_EQ(lines.size(), kErrorSummaryLines);
    EXPECT_EQ(lines.first(), QStringLiteral("Quick start #3 failed:"));
    EXPECT_EQ(lines.last(),
              QStringLiteral("... and 116 more lines: Show Details has the whole message."));
    EXPECT_EQ(text.details, message);
}

TEST(ErrorText, OneHugeLineIsCutInTheSummaryAndWholeInTheDetails) {
    const QString message = QStringLiteral("x").repeated(5000);
    const ErrorText text = splitErrorText(message);
    for (const QString& line : text.summary.split(u'\n'))
        EXPECT_LE(line.size(), kErrorLineChars);
    EXPECT_EQ(text.details, message);
}

TEST(ErrorBox, AHundredAndTwentyMissingFilesFitOnScreenWithDetailsToScrollAndCopy) {
    const QString message = manyMissingFiles(120);
    QMessageBox* box = createErrorBox(nullptr, QStringLiteral("Run Failed"), message);
    box->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(box));
    EXPECT_LT(box->height(), 600);
    EXPECT_EQ(box->detailedText(), message);
    EXPECT_FALSE(box->text().contains(QStringLiteral("rank.119.et")));

    QAbstractButton* details = detailsButton(box);
    ASSERT_NE(details, nullptr) << "no Show Details button";
    details->click();
    QApplication::processEvents();
    EXPECT_LT(box->height(), 600) << "the details open in a bounded, scrolled area";
    auto* area = box->findChild<QTextEdit*>();
    ASSERT_NE(area, nullptr);
    EXPECT_TRUE(area->isVisible());
    EXPECT_TRUE(area->isReadOnly());
    EXPECT_GT(area->verticalScrollBar()->maximum(), 0) << "the 121 lines scroll";
    EXPECT_EQ(area->toPlainText(), message);
    area->selectAll();
    area->copy();
    EXPECT_EQ(QApplication::clipboard()->text(), message);
    // The OK button is on screen: inside the box and the box no taller than a laptop screen.
    QAbstractButton* ok = box->button(QMessageBox::Ok);
    ASSERT_NE(ok, nullptr);
    EXPECT_LE(ok->mapTo(box, QPoint(0, ok->height())).y(), box->height());
    delete box;
}
