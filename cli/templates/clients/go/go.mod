{{ header }}module {{ module }}

go 1.24

require (
	k8s.io/api {{ k8s_version }}
	k8s.io/apimachinery {{ k8s_version }}
)
