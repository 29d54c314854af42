"""trajkit: trajectory evaluation for visual odometry and SLAM benchmarks (standard library only)."""
