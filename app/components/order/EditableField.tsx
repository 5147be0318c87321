import { TextField } from "@shopify/polaris";

/**
 * A field of the order form. Its value lives in the page (not here), so re-rendering the form with new loader data
 * (another box chosen) keeps what the merchant typed; `error` marks the field a problem names.
 */
export function EditableField({
  name,
  label,
  value,
  onChange,
  error,
  type,
}: {
  name: string;
  label: string;
  value: string;
  onChange: (name: string, value: string) => void;
  error?: string;
  type?: "number";
}) {
  return (
    <TextField
      name={name}
      label={label}
      value={value}
      onChange={(next) => onChange(name, next)}
      autoComplete="off"
      type={type}
      error={error}
    />
  );
}
