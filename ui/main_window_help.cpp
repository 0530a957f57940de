// MainWindow: what a first-time user meets (issue 19): keyboard focus that
// comes back to the viewport, messages for people, the empty-state hint and
// Help ▸ Shortcuts.
#include "ui/main_window.h"

#include "ui/document.h"
#include "ui/messages.h"
#include "ui/viewport/viewport.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDebug>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFrame>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rig::ui {
namespace {

/// The spin box `w` is, or whose line edit it is; null otherwise.
QAbstractSpinBox* spinBoxOf(QWidget* w)
{
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(w))
        return spin;
    if (qobject_cast<QLineEdit*>(w) && w->parentWidget())
        return qobject_cast<QAbstractSpinBox*>(w->parentWidget());
    return nullptr;
}

/// Widgets that take typed text: there, letters, digits, Space and Tab are the text's.
bool takesText(QWidget* w)
{
    if (spinBoxOf(w) || qobject_cast<QLineEdit*>(w) || qobject_cast<QTextEdit*>(w) ||
        qobject_cast<QPlainTextEdit*>(w))
        return true;
    if (auto* combo = qobject_cast<QComboBox*>(w))
        return combo->isEditable();
    return false;
}

/// A key the app binds without modifiers (1/2/3, F, W, G, S, K, Space, Tab, …).
bool isSingleKey(const QKeyEvent* e)
{
    const Qt::KeyboardModifiers mods = e->modifiers() & ~Qt::KeypadModifier;
    if (mods != Qt::NoModifier && mods != Qt::ShiftModifier)
        return false;
    const int k = e->key();
    return (k >= Qt::Key_0 && k <= Qt::Key_9) || (k >= Qt::Key_A && k <= Qt::Key_Z) || k == Qt::Key_Space ||
           k == Qt::Key_Tab || k == Qt::Key_Backtab;
}

/// Back to the value the field had before the typing (its text is re-shown from its value).
void revert(QAbstractSpinBox* spin)
{
    // With keyboard tracking off, value() is still the committed value while the text is edited.
    if (auto* d = qobject_cast<QDoubleSpinBox*>(spin))
        d->setValue(d->value());
    else if (auto* i = qobject_cast<QSpinBox*>(spin))
        i->setValue(i->value());
}

} // namespace

QWidget* MainWindow::viewWidget() const { return centralWidget(); }

void MainWindow::installFocusHandling()
{
    // Clicking the viewport (or the tests' placeholder) gives it the focus.
    viewWidget()->setFocusPolicy(Qt::StrongFocus);
    viewWidget()->installEventFilter(this);
    qApp->installEventFilter(this);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == viewWidget() && event->type() == QEvent::Resize && m_emptyHint)
        QMetaObject::invokeMethod(this, &MainWindow::updateEmptyHint, Qt::QueuedConnection);
    const QEvent::Type type = event->type();
    if (type != QEvent::ShortcutOverride && type != QEvent::KeyPress)
        return QMainWindow::eventFilter(watched, event);
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget != QApplication::focusWidget() || widget->window() != this)
        return QMainWindow::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    const int k = key->key();
    const bool plain = (key->modifiers() & ~Qt::KeypadModifier) == Qt::NoModifier;
    if (takesText(widget)) {
        QAbstractSpinBox* spin = spinBoxOf(widget);
        const bool field = spin || qobject_cast<QLineEdit*>(widget);
        const bool done = plain && (k == Qt::Key_Return || k == Qt::Key_Enter || k == Qt::Key_Escape);
        if (field && done) {
            if (type == QEvent::ShortcutOverride) { // Escape is also "Cancel Running Stage": the field's first
                event->accept();
                return true;
            }
            if (k == Qt::Key_Escape) {
                if (spin)
                    revert(spin);
            } else if (auto* edit = qobject_cast<QLineEdit*>(widget); edit && !spin) {
                emit edit->returnPressed(); // what Enter means in a line edit, before it loses the focus
            }
            // Leaving the field commits a typed value (editingFinished), as Enter does.
            viewWidget()->setFocus(Qt::ShortcutFocusReason);
            return true;
        }
        // Tab moves between the fields of a form; letters and digits are typed.
        if (type == QEvent::ShortcutOverride && (k == Qt::Key_Tab || k == Qt::Key_Backtab)) {
            event->accept();
            return true;
        }
        return QMainWindow::eventFilter(watched, event);
    }
    // Over the viewport, a tree, a list, a button or a slider, a single key is
    // the app's shortcut, not the widget's (keyboard search, a button's Space).
    if (type == QEvent::ShortcutOverride && isSingleKey(key)) {
        event->ignore();
        return true;
    }
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::showNotice(const QString& message, int timeoutMs)
{
    qInfo().noquote() << "notice:" << message; // the log keeps the developer's text
    m_lastFull = forPeople(message);
    m_lastShort = shortSentence(message);
    statusBar()->showMessage(m_lastShort, timeoutMs);
    if (m_detailsAction)
        m_detailsAction->setEnabled(m_lastShort != m_lastFull);
}

void MainWindow::onStageFailed(Task stage, const QString& message)
{
    qWarning().noquote() << "stage" << taskName(stage) << "failed:" << message; // function names stay in the log
    statusBar()->clearMessage();
    if (stage == Task::Autosave) { // not the artist's doing: a note, not a dialog
        showNotice(tr("Autosave failed: %1").arg(forPeople(message)), 10000);
        return;
    }
    const QString title =
        stage == Task::Load ? tr("Could not open the character") : tr("%1 failed").arg(taskTitle(stage));
    m_lastFull = forPeople(message);
    m_lastShort = shortSentence(message);
    statusBar()->showMessage(m_lastShort, 15000);
    if (m_detailsAction)
        m_detailsAction->setEnabled(true);
    showError(title, m_lastFull);
}

void MainWindow::createHelpControls()
{
    // The status bar's Details button: the whole of the last message.
    auto* details = new QToolButton(this);
    details->setObjectName("messageDetails");
    m_detailsAction = new QAction(tr("Details…"), this);
    m_detailsAction->setToolTip(tr("The whole of the last message"));
    m_detailsAction->setEnabled(false);
    details->setDefaultAction(m_detailsAction);
    details->setAutoRaise(true);
    statusBar()->insertPermanentWidget(0, details);
    connect(m_detailsAction, &QAction::triggered, this, [this] {
        auto* box = new QMessageBox(QMessageBox::Information, tr("Message"), m_lastFull, QMessageBox::Ok, this);
        box->setObjectName("detailsBox");
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName("helpMenu");
    QAction* sheet = help->addAction(tr("&Shortcuts"));
    sheet->setObjectName("actionShortcuts");
    sheet->setShortcut(QKeySequence(Qt::Key_F1));
    connect(sheet, &QAction::triggered, this, [this] {
        if (auto* open = findChild<QDialog*>("shortcutsSheet")) {
            open->raise();
            return;
        }
        auto* dialog = new QDialog(this);
        dialog->setObjectName("shortcutsSheet");
        dialog->setWindowTitle(tr("Shortcuts"));
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        auto* layout = new QVBoxLayout(dialog);
        auto* table = new QTableWidget(dialog);
        table->setObjectName("shortcutsTable");
        table->setColumnCount(2);
        table->setHorizontalHeaderLabels({tr("Keys"), tr("Does")});
        table->verticalHeader()->hide();
        table->horizontalHeader()->setStretchLastSection(true);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        // The window's own actions with their keys (always in step with the menus), then the mouse.
        std::vector<std::pair<QString, QString>> rows;
        for (QAction* a : findChildren<QAction*>()) {
            if (a->shortcuts().isEmpty() || a->text().isEmpty())
                continue;
            QStringList keys;
            for (const QKeySequence& k : a->shortcuts())
                keys << k.toString(QKeySequence::NativeText);
            QString text = a->text();
            text.remove('&');
            rows.emplace_back(keys.join(", "), text);
        }
        std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
        rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
        for (const auto& [keys, text] : std::initializer_list<std::pair<QString, QString>>{
                 {tr("Left or middle drag"), tr("Orbit the camera")},
                 {tr("Shift + drag"), tr("Pan")},
                 {tr("Wheel"), tr("Zoom towards the pointer")},
                 {tr("Click a sphere"), tr("Label an end node (Rig mode)")},
                 {tr("Drag a joint"), tr("Move it (Rig mode; Shift: no snapping)")},
                 {tr("Drag a gizmo ring"), tr("Rotate the joint (Pose mode; Ctrl: 15° steps)")},
                 {tr("Enter / Escape in a field"), tr("Keep / drop the typed value, back to the viewport")}})
            rows.emplace_back(keys, text);
        table->setRowCount(int(rows.size()));
        for (int r = 0; r < int(rows.size()); ++r) {
            table->setItem(r, 0, new QTableWidgetItem(rows[size_t(r)].first));
            table->setItem(r, 1, new QTableWidgetItem(rows[size_t(r)].second));
        }
        table->resizeColumnsToContents();
        layout->addWidget(table);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        layout->addWidget(buttons);
        dialog->resize(520, 560);
        dialog->show();
    });

    // The empty state: what to do first, over the empty viewport.
    auto* hint = new QFrame(viewWidget());
    hint->setObjectName("emptyHint");
    hint->setFrameShape(QFrame::StyledPanel);
    hint->setAutoFillBackground(true);
    hint->setStyleSheet("#emptyHint { background: rgba(30, 34, 40, 230); border: 1px solid #556; border-radius: 8px; }"
                        "#emptyHint QLabel { color: #e8e8e8; }");
    auto* layout = new QVBoxLayout(hint);
    layout->setContentsMargins(24, 18, 24, 18);
    auto* text = new QLabel(tr("<h3>Nothing loaded yet</h3>"
                               "<p>Open a character (Ctrl+O), drop a file here, or try the default character.</p>"
                               "<p>F1 lists the shortcuts.</p>"),
                            hint);
    text->setObjectName("emptyHintText");
    text->setAlignment(Qt::AlignCenter);
    layout->addWidget(text);
    auto* row = new QHBoxLayout;
    auto* open = new QPushButton(tr("Open… (Ctrl+O)"), hint);
    open->setObjectName("emptyHintOpen");
    auto* def = new QPushButton(tr("Default Character"), hint);
    def->setObjectName("emptyHintDefault");
    row->addStretch(1);
    row->addWidget(open);
    row->addWidget(def);
    row->addStretch(1);
    layout->addLayout(row);
    connect(open, &QPushButton::clicked, this, &MainWindow::showOpenDialog);
    connect(def, &QPushButton::clicked, this, &MainWindow::openDefaultCharacter);
    m_emptyHint = hint;
    connect(m_document, &Document::characterChanged, this, &MainWindow::updateEmptyHint);
    connect(m_document, &Document::busyChanged, this, &MainWindow::updateEmptyHint);
    updateEmptyHint();
}

void MainWindow::updateEmptyHint()
{
    if (!m_emptyHint)
        return;
    const bool empty = !m_document->project().hasCharacter() && !m_document->busy();
    m_emptyHint->setVisible(empty);
    if (!empty)
        return;
    m_emptyHint->adjustSize();
    const QSize s = m_emptyHint->size(), area = viewWidget()->size();
    m_emptyHint->move(std::max(0, (area.width() - s.width()) / 2), std::max(0, (area.height() - s.height()) / 2));
    m_emptyHint->raise();
}

} // namespace rig::ui
