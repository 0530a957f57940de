#include "ui/panels/export_dialog.h"

#include "core/rig/bone_names.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace rig::ui {

QString ExportDialog::startFolder(const QString& projectPath)
{
    if (!projectPath.isEmpty()) {
        const QFileInfo folder(QFileInfo(projectPath).absolutePath());
        if (folder.isDir() && folder.isWritable())
            return folder.absoluteFilePath();
    }
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!documents.isEmpty() && (QFileInfo(documents).isDir() || QDir().mkpath(documents)))
        return documents;
    return QDir::homePath();
}

ExportDialog::ExportDialog(const QString& clipName, int clipFrames, const QString& startFolder,
                           const QString& baseName, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export Rigged Character"));
    auto* layout = new QVBoxLayout(this);

    auto* file = new QFormLayout;
    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit(QDir(startFolder).filePath(baseName + ".glb"));
    m_path->setObjectName("exportPath");
    auto* browseButton = new QPushButton(tr("Browse…"));
    pathRow->addWidget(m_path);
    pathRow->addWidget(browseButton);
    file->addRow(tr("File:"), pathRow);
    m_format = new QComboBox;
    m_format->setObjectName("exportFormat");
    m_format->addItem(tr("glTF 2.0 binary (.glb), textures inside"), ".glb");
    m_format->addItem(tr("glTF 2.0 (.gltf) with the images beside it"), ".gltf");
    file->addRow(tr("Format:"), m_format);
    layout->addLayout(file);

    auto* animation = new QGroupBox(tr("Animation"));
    auto* anim = new QFormLayout(animation);
    m_includeClip = new QCheckBox(clipName.isEmpty() ? tr("No clip loaded") : tr("The loaded clip (%1)").arg(clipName));
    m_includeClip->setObjectName("exportIncludeClip");
    m_includeClip->setChecked(!clipName.isEmpty());
    m_includeClip->setEnabled(!clipName.isEmpty());
    anim->addRow(m_includeClip);
    m_extraClips = new QListWidget;
    m_extraClips->setObjectName("exportExtraClips");
    m_extraClips->setMaximumHeight(80);
    auto* clipButtons = new QHBoxLayout;
    auto* addClip = new QPushButton(tr("Add BVH clips…"));
    auto* removeClip = new QPushButton(tr("Remove"));
    clipButtons->addWidget(addClip);
    clipButtons->addWidget(removeClip);
    anim->addRow(tr("More clips:"), m_extraClips);
    anim->addRow(clipButtons);
    auto* range = new QHBoxLayout;
    m_first = new QSpinBox;
    m_first->setObjectName("exportFirstFrame");
    m_last = new QSpinBox;
    m_last->setObjectName("exportLastFrame");
    const int maxFrame = std::max(clipFrames - 1, 100000);
    m_first->setRange(0, maxFrame);
    m_last->setRange(-1, maxFrame);
    m_last->setSpecialValueText(tr("end"));
    m_last->setValue(-1);
    range->addWidget(m_first);
    range->addWidget(new QLabel(tr("to")));
    range->addWidget(m_last);
    anim->addRow(tr("Frames:"), range);
    m_rootMotion = new QCheckBox(tr("Include the root motion (the clip's travel)"));
    m_rootMotion->setObjectName("exportRootMotion");
    m_rootMotion->setChecked(true);
    anim->addRow(m_rootMotion);
    layout->addWidget(animation);

    auto* units = new QGroupBox(tr("Units"));
    auto* unitsLayout = new QVBoxLayout(units);
    auto* keep = new QRadioButton(tr("Keep the source's units"));
    m_metres = new QRadioButton(tr("Scale to metres (glTF's unit; where the file says its unit)"));
    m_metres->setObjectName("exportMetres");
    keep->setChecked(true);
    unitsLayout->addWidget(keep);
    unitsLayout->addWidget(m_metres);
    layout->addWidget(units);

    // The joints' names: what the artist's engine maps without renaming by hand.
    auto* names = new QGroupBox(tr("Joint names"));
    auto* namesLayout = new QFormLayout(names);
    m_boneNames = new QComboBox;
    m_boneNames->setObjectName("exportBoneNames");
    for (const std::string& preset : boneNamePresets())
        m_boneNames->addItem(QString::fromStdString(boneNamePresetTitle(preset)), QString::fromStdString(preset));
    m_boneNames->setToolTip(tr("Name the joints the way the engine's importer expects: Mixamo (mixamorig:), "
                               "Unity's Humanoid avatar, the Unreal Engine 5 mannequin, or VRM's humanoid bones"));
    const QString last = QSettings().value("export/boneNames", "rigsmith").toString();
    m_boneNames->setCurrentIndex(std::max(0, m_boneNames->findData(last)));
    namesLayout->addRow(tr("Names for:"), m_boneNames);
    layout->addWidget(names);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    layout->addWidget(buttons);

    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::syncExtension);
    connect(addClip, &QPushButton::clicked, this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Add Clips"), QString(), tr("BVH motion (*.bvh)"));
        m_extraClips->addItems(files);
    });
    connect(removeClip, &QPushButton::clicked, this, [this] { qDeleteAll(m_extraClips->selectedItems()); });
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        QSettings().setValue("export/boneNames", m_boneNames->currentData().toString());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void ExportDialog::browse()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Rigged Character"), m_path->text(),
                                                      tr("glTF 2.0 (*.glb *.gltf)"));
    if (path.isEmpty())
        return;
    m_path->setText(path);
    m_format->setCurrentIndex(QFileInfo(path).suffix().compare("gltf", Qt::CaseInsensitive) == 0 ? 1 : 0);
    syncExtension();
}

void ExportDialog::syncExtension()
{
    const QString ext = m_format->currentData().toString();
    QString path = m_path->text();
    const QFileInfo info(path);
    if (!path.isEmpty() && "." + info.suffix().toLower() != ext)
        path = QDir(info.path()).filePath(info.completeBaseName() + ext);
    m_path->setText(path);
}

ExportChoice ExportDialog::choice() const
{
    ExportChoice c;
    c.path = m_path->text();
    if (QFileInfo(c.path).suffix().isEmpty())
        c.path += m_format->currentData().toString();
    c.includeClip = m_includeClip->isEnabled() && m_includeClip->isChecked();
    for (int i = 0; i < m_extraClips->count(); ++i)
        c.extraClips << m_extraClips->item(i)->text();
    c.firstFrame = m_first->value();
    c.lastFrame = m_last->value();
    c.metres = m_metres->isChecked();
    c.rootMotion = m_rootMotion->isChecked();
    c.boneNames = m_boneNames->currentData().toString();
    return c;
}

} // namespace rig::ui
