// The Serving tab without a window: what it says for a run that is not a serving run, after a
// serving run was shown.
#include "gui/ServingPage.h"

#include "GuiTestSupport.h"
#include "serving/ServingCodec.h"

#include <gtest/gtest.h>

using namespace astrolabe;
using namespace astrolabe::gui;

// A serving run whose records cannot be decoded leaves its error on the tab; selecting a training
// run (or none) afterwards shows the hint again, not "Reading the run's requests…" or that error.
TEST(ServingPage, ARunThatIsNotServingShowsTheHintAfterAServingRun) {
    ServingPage page;
    EXPECT_EQ(page.message(), ServingPage::hint());

    auto broken = std::make_shared<RunResult>();
    broken->attachments.emplace_back(serving::kServingAttachment, "not the records");
    RunRecord serving;
    serving.result = broken;
    page.showRun(&serving);
    EXPECT_EQ(page.message(), QStringLiteral("Reading the run's requests…"));
    ASSERT_TRUE(test::waitUntil([&] { return page.isReady(); }, 10000));
    EXPECT_TRUE(page.message().startsWith(QStringLiteral("Cannot read this run's requests")))
        << page.message().toStdString();

    RunRecord training;
    training.result = std::make_shared<RunResult>();
    page.showRun(&training);
    EXPECT_EQ(page.message(), ServingPage::hint());
    page.showRun(&serving);
    page.showRun(nullptr); // while the first decode is still under way
    EXPECT_EQ(page.message(), ServingPage::hint());
    QTest::qWait(100);
    EXPECT_EQ(page.message(), ServingPage::hint()) << "the dropped decode wrote over the hint";
}
