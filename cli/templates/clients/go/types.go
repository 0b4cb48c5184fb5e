{{ header }}package {{ package }}
{%- if !imports.is_empty() %}

import (
{%- for import in imports %}
	{{ import }}
{%- endfor %}
)
{%- endif %}
{%- for ty in types %}
{% if !ty.markers.is_empty() %}
{% for line in ty.markers -%}
// {{ line }}
{% endfor -%}
{% endif %}
{% for line in ty.doc -%}
{% if line.is_empty() %}//
{% else %}// {{ line }}
{% endif %}
{%- endfor -%}
{% match ty.fields -%}
{% when Some(fields) -%}
type {{ ty.name }} struct {
{%- for field in fields %}
{%- if !loop.first %}
{% endif %}
{%- for line in field.doc %}
{% if line.is_empty() %}	//{% else %}	// {{ line }}{% endif %}
{%- endfor %}
	{{ field.decl }}
{%- endfor %}
}
{%- if !ty.methods.is_empty() %}
{{ ty.methods }}
{%- endif %}
{%- when None -%}
type {{ ty.name }} {{ ty.underlying }}
{%- endmatch %}
{%- endfor %}
