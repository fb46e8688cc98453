// The plotting scripts run from inside the binary: a folder without its
// table is refused before python3 starts, and the validation pictures are
// told from the folder's other files.
#include "plots/plotting.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/error.hpp"

using namespace numacoll;

TEST(Plotting, AFolderWithoutItsTableIsRefused) {
    const auto folder = std::filesystem::temp_directory_path() / ("numacoll-plots-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    EXPECT_THROW(plots::plot_folder(folder.string(), folder.string()), InputError);
    EXPECT_THROW(plots::plot_folder(folder.string(), folder.string(), "plot_tune", "selection.csv"), InputError);
    std::filesystem::remove_all(folder);
}

TEST(Plotting, ValidationPicturesAreKnownByName) {
    EXPECT_TRUE(plots::is_validation_picture("latency.png"));
    EXPECT_TRUE(plots::is_validation_picture("gantt-tree-64B.png"));
    EXPECT_FALSE(plots::is_validation_picture("validation.csv"));
    EXPECT_FALSE(plots::is_validation_picture("machine.png"));
}
