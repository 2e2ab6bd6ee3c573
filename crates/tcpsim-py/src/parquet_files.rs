//! A run's result tables written as Parquet files by the extension itself, without going
//! through Python objects, pandas or pyarrow (issue 22: a sweep of small runs spent most of
//! its time turning the tables into DataFrames and writing them with pyarrow).
//!
//! Each file holds one row group with every column OPTIONAL (as pyarrow writes a pandas
//! column, though the core's columns never hold a null): strings as BYTE_ARRAY with the
//! STRING logical type, integers as INT64, floats as DOUBLE, Snappy-compressed, plus the
//! run's id in the key-value metadata under `tcpsim.run_uuid`. pyarrow and pandas read
//! them back as the same columns, types and values as the files written from pandas
//! (`tests/test_results_core_parquet.py` compares them table by table). A table without
//! rows is not written here: pandas gives its empty string columns no type, which these
//! files cannot say, so Python writes those as before.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use parquet::basic::{Compression, LogicalType, Repetition, Type as PhysicalType};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::errors::Result;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use tcpsim::{Column, Table};

/// Key of the run's id in each file's metadata (`tcpsim.results._PARQUET_KEY`).
pub const RUN_UUID_KEY: &str = "tcpsim.run_uuid";

fn field(name: &str, column: &Column) -> Result<Arc<Type>> {
    let (physical, logical) = match column {
        Column::F64(_) => (PhysicalType::DOUBLE, None),
        Column::I64(_) => (PhysicalType::INT64, None),
        Column::Str(_) => (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)),
    };
    Ok(Arc::new(
        Type::primitive_type_builder(name, physical)
            .with_repetition(Repetition::OPTIONAL)
            .with_logical_type(logical)
            .build()?,
    ))
}

/// Writes `table` (at least one row) to `path` as Parquet, tagged with `run_uuid`.
pub fn write_table(table: &Table, path: &Path, run_uuid: &str) -> Result<()> {
    let fields = table.columns.iter().map(|(name, column)| field(name, column)).collect::<Result<Vec<_>>>()?;
    let schema = Arc::new(Type::group_type_builder("schema").with_fields(fields).build()?);
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_key_value_metadata(Some(vec![KeyValue::new(RUN_UUID_KEY.to_string(), run_uuid.to_string())]))
        .build();
    let mut writer = SerializedFileWriter::new(File::create(path)?, schema, Arc::new(properties))?;
    let rows = table.columns.first().map_or(0, |(_, column)| column.len());
    let present = vec![1i16; rows]; // every value is there: definition level 1
    let mut row_group = writer.next_row_group()?;
    for (_, column) in &table.columns {
        let mut out = row_group.next_column()?.expect("one column writer per schema field");
        match column {
            Column::F64(values) => {
                out.typed::<DoubleType>().write_batch(values, Some(&present), None)?;
            }
            Column::I64(values) => {
                out.typed::<Int64Type>().write_batch(values, Some(&present), None)?;
            }
            Column::Str(values) => {
                let bytes: Vec<ByteArray> = values.iter().map(|s| ByteArray::from(s.as_bytes().to_vec())).collect();
                out.typed::<ByteArrayType>().write_batch(&bytes, Some(&present), None)?;
            }
        }
        out.close()?;
    }
    row_group.close()?;
    writer.close()?;
    Ok(())
}
