/* A header the dependency file lists (driver/dependency_files.c). */
#define SCALE_BY 2.5
