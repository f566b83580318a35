#include "gui/MainWindow.h"

#include "core/Version.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

namespace astrolabe::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("Astrolabe"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/astrolabe.svg")));
    auto* welcome = new QLabel(tr("<h2>Astrolabe</h2><p>Design a platform, pick a workload, run it "
                                  "and see why it is as fast or slow as it is.</p>"),
                               this);
    welcome->setAlignment(Qt::AlignCenter);
    setCentralWidget(welcome);
    createMenus();
    statusBar()->showMessage(tr("Ready"));
    resize(1280, 800);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Astrolabe"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QString MainWindow::aboutText() {
    return tr("<h3>Astrolabe %1</h3>"
              "<p>A laboratory for designing distributed AI training platforms: multi-dimensional "
              "networks, Chakra workloads, collectives, and a timeline that explains the result.</p>"
              "<p>Reads ASTRA-sim 2.x inputs and reproduces its analytical results.</p>")
        .arg(QString::fromLatin1(engineVersion()));
}

void MainWindow::showAbout() { QMessageBox::about(this, tr("About Astrolabe"), aboutText()); }

} // namespace astrolabe::gui
