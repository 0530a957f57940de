// main() of the Qt test executables: the QApplication is made by an Environment.
#include "tests/support/qt/qt_environment.h"

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new rig::test::QtEnvironment(argc, argv));
    return RUN_ALL_TESTS();
}
