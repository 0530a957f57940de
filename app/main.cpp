// rigsmith-gui: the window with no arguments (or a file to open), and the
// commands that need Qt (`render`, `--screenshot`); `rigsmith` (app/cli_main.cpp)
// runs the headless commands without Qt and becomes this executable for the rest.

#include "app/cli.h"
#include "app/window_options.h"
#include "app/cli_common.h"
#include "ui/document.h"
#include "ui/main_window.h"
#include "ui/panels/weight_panel.h"

#include "ui/render_offscreen.h"
#include "ui/viewport/viewport.h"

#include <QApplication>
#include <QDockWidget>
#include <QPainter>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    rig::app::setWindowCommand(rig::app::cmdRender);
    if (rig::app::isCliInvocation(args))
        return rig::app::runCli(argc, argv, args);

    // The window's options, in any order (app/window_options.h).
    std::string error;
    const std::optional<rig::app::WindowOptions> options = rig::app::parseWindowOptions(args, error);
    if (!options) {
        std::cerr << "rigsmith: " << error << '\n';
        return 1;
    }
    const QString screenshot = QString::fromStdString(options->screenshot);
    const QString dock = options->dock.empty() ? QString() : QString(rig::app::dockObjectName(options->dock));
    const QString frameJoint = QString::fromStdString(options->frame);
    static const std::map<std::string, rig::ui::MeshColoring> colourings = {
        {"shaded", rig::ui::MeshColoring::Shaded},
        {"segments", rig::ui::MeshColoring::Segments},
        {"weights", rig::ui::MeshColoring::Weights}};
    const int colouring = options->colour.empty() ? -1 : int(colourings.at(options->colour));

    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") && !std::getenv("QT_QPA_PLATFORM")) {
        std::cerr << "rigsmith: no display to open the window on; run it in a desktop session or under "
                     "xvfb-run, or use a command (rigsmith --help)\n";
        return 1;
    }

    QSurfaceFormat::setDefaultFormat(rig::ui::viewportFormat());
    QApplication app(argc, argv);
    rig::ui::useViewportSamples();
    QApplication::setOrganizationName("Rigsmith");
    QApplication::setApplicationName("Rigsmith");
    QApplication::setApplicationVersion(RIGSMITH_VERSION);

    rig::ui::MainWindow window;
    if (options->width > 0)
        window.resize(options->width, options->height);
    window.show();
    if (!dock.isEmpty())
        if (auto* d = window.findChild<QDockWidget*>(dock))
            d->raise();
    // A session that did not close normally left an autosave: offer it first
    // (not when taking a scripted screenshot).
    // Without a file the window starts empty, with its hint (Open, drop a file,
    // or the default character: issue 19 item 10); a scripted screenshot shows
    // the default character.
    if (options->file)
        window.openFile(QString::fromStdString(*options->file));
    else if (!screenshot.isEmpty())
        window.openFile(QStringLiteral("default"));
    else
        window.offerRecovery();

    if (!screenshot.isEmpty()) {
        // Grab once the pipeline has gone idle (load, then the stages it starts).
        QObject::connect(window.document(), &rig::ui::Document::busyChanged, &window, [&](bool busy) {
            if (busy)
                return;
            QTimer::singleShot(600, &window, [&] {
                if (window.document()->busy())
                    return;
                if (!frameJoint.isEmpty()) {
                    const auto& rig = window.document()->project().rig();
                    const auto joint = rig ? rig->skeleton.find(frameJoint.toStdString()) : std::nullopt;
                    if (!joint || !window.viewport()) {
                        std::cerr << "rigsmith: --frame: the rig has no joint '" << frameJoint.toStdString() << "'\n";
                        QApplication::exit(1);
                        return;
                    }
                    window.viewport()->setSelectedJoint(*joint);
                    emit window.viewport()->jointSelected(*joint); // the panels show it, as after a click
                    window.viewport()->frameSelected();
                    QCoreApplication::processEvents();
                }
                if (colouring >= 0) {
                    window.weightPanel()->setColoring(rig::ui::MeshColoring(colouring));
                    QCoreApplication::processEvents();
                }
                // Compose the window with the viewport's own framebuffer grab
                // (it includes the texts painted over the 3D view).
                QImage shot = window.grab().toImage();
                if (auto* vp = window.viewport()) {
                    QPainter painter(&shot);
                    const QPoint at = vp->mapTo(&window, QPoint(0, 0)) * shot.devicePixelRatio();
                    painter.drawImage(at, vp->grabFramebuffer());
                    // Widgets over the 3D view (the empty-state hint) on top of its image.
                    for (QWidget* child : vp->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
                        if (child->isVisible())
                            painter.drawPixmap(at + child->pos() * shot.devicePixelRatio(), child->grab());
                }
                const bool ok = shot.save(screenshot);
                std::cout << (ok ? "wrote " : "could not write ") << screenshot.toStdString() << '\n';
                QApplication::exit(ok ? 0 : 1);
            });
        });
    }
    return QApplication::exec();
}
