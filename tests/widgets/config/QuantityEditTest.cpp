// QuantityEdit: the engine's units parse what is typed; values show in the unit that reads
// shortest and exactly; bad text is reported, never passed on.
#include "config/QuantityEdit.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

using astrolabe::widgets::QuantityEdit;

TEST(QuantityEdit, ShowsValuesInTheirExactShortestUnit) {
    QuantityEdit rate(QuantityEdit::Kind::Bandwidth);
    rate.setValue(50.0 * 1073741824.0); // ASTRA-sim's "50 GB/s" is 50 GiB/s
    EXPECT_EQ(rate.text(), QStringLiteral("50 GiB/s"));
    rate.setValue(400e9);
    EXPECT_EQ(rate.text(), QStringLiteral("400 GB/s"));
    QuantityEdit size(QuantityEdit::Kind::Size);
    size.setValue(1048576);
    EXPECT_EQ(size.text(), QStringLiteral("1 MiB"));
    size.setValue(1000);
    EXPECT_EQ(size.text(), QStringLiteral("1 KB"));
    QuantityEdit time(QuantityEdit::Kind::Time);
    time.setValue(936250); // ps
    EXPECT_EQ(time.text(), QStringLiteral("936.25 ns"));
    time.setValue(2e6);
    EXPECT_EQ(time.text(), QStringLiteral("2 us"));
    EXPECT_TRUE(time.isValid());
    time.setValue(0);
    EXPECT_EQ(time.text(), QStringLiteral("0 ns")) << "zero in the everyday unit";
    EXPECT_EQ(QuantityEdit::format(QuantityEdit::Kind::Bandwidth, 80.0 * 1073741824.0),
              QStringLiteral("80 GiB/s"));
}

TEST(QuantityEdit, ParsesTypedTextWithTheEngineUnits) {
    QuantityEdit size(QuantityEdit::Kind::Size);
    QSignalSpy edited(&size, &QuantityEdit::valueEdited);
    size.setValue(1);
    size.numberEdit()->clear();
    QTest::keyClicks(size.numberEdit(), QStringLiteral("1.5 GiB")); // unit typed in the box
    ASSERT_GE(edited.count(), 1);
    EXPECT_DOUBLE_EQ(edited.last().at(0).toDouble(), 1.5 * 1073741824.0);
    EXPECT_EQ(size.unitCombo()->currentText(), QStringLiteral("GiB"));
    EXPECT_EQ(size.numberEdit()->text(), QStringLiteral("1.5"));

    // Changing the unit re-reads the number: 1.5 GB = 1.5e9 bytes.
    size.unitCombo()->setCurrentIndex(size.unitCombo()->findText(QStringLiteral("GB")));
    emit size.unitCombo()->activated(size.unitCombo()->currentIndex());
    EXPECT_DOUBLE_EQ(edited.last().at(0).toDouble(), 1.5e9);
}

TEST(QuantityEdit, BadTextIsReportedAndNotPassedOn) {
    QuantityEdit rate(QuantityEdit::Kind::Bandwidth);
    rate.setValue(1e9);
    QSignalSpy edited(&rate, &QuantityEdit::valueEdited);
    QSignalSpy validity(&rate, &QuantityEdit::validityChanged);
    rate.setTextAsTyped(QStringLiteral("lots"));
    EXPECT_EQ(edited.count(), 0);
    EXPECT_FALSE(rate.isValid());
    EXPECT_FALSE(rate.value().has_value());
    EXPECT_TRUE(rate.errorMessage().contains(QStringLiteral("bandwidth")))
        << rate.errorMessage().toStdString();
    EXPECT_TRUE(rate.numberEdit()->property("invalid").toBool()) << "red border";
    ASSERT_EQ(validity.count(), 1);
    EXPECT_FALSE(validity.at(0).at(0).toBool());
    rate.setTextAsTyped(QStringLiteral("0"));
    EXPECT_FALSE(rate.isValid()) << "a bandwidth must be greater than zero";
    rate.setTextAsTyped(QStringLiteral("25"));
    EXPECT_TRUE(rate.isValid());
    EXPECT_FALSE(rate.numberEdit()->property("invalid").toBool());
    EXPECT_DOUBLE_EQ(edited.last().at(0).toDouble(), 25e9);
    rate.setExternalError(QStringLiteral("too slow"));
    EXPECT_FALSE(rate.isValid());
    EXPECT_EQ(rate.errorMessage(), QStringLiteral("too slow"));
}
